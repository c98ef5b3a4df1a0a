package dev.tidings.app;

import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Markets;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.catalog.CatalogRoutes;
import dev.tidings.web.catalog.MarketRoutes;
import java.util.List;

/** The product catalogue on the node's database. */
public final class CatalogWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<CatalogService> catalog;
  private final Lazy<Markets> markets;

  CatalogWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.catalog =
        Lazy.of(() -> new CatalogService(infrastructure.database().jdbi(), infrastructure.clock()));
    this.markets =
        Lazy.of(() -> new Markets(infrastructure.database().jdbi(), infrastructure.clock()));
  }

  /** Markets and the products' prices in them. */
  public Markets markets() {
    return markets.get();
  }

  public CatalogService catalog() {
    return catalog.get();
  }

  @Override
  public List<RouteGroup> routes() {
    var settings = infrastructure.settings();
    return List.of(
        new MarketRoutes(markets(), catalog(), settings.maxBodyBytes()),
        new CatalogRoutes(catalog(), settings.maxBodyBytes(), settings.maxImportBytes()));
  }
}

package dev.tidings.app;

import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.optimize.OptimizeRoutes;
import java.util.List;

/** The conversion optimiser on the node's database: item configurations, their counts, the day's changes. */
public final class OptimizeWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<ItemConfigurations> configurations;

  OptimizeWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.configurations = Lazy.of(
        () -> new ItemConfigurations(infrastructure.database().jdbi(), infrastructure.clock()));
  }

  public ItemConfigurations configurations() {
    return configurations.get();
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(
        new OptimizeRoutes(configurations(), infrastructure.settings().maxBodyBytes()));
  }
}

package dev.tidings.web.catalog;

import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.ProductJson;
import dev.tidings.web.Resource;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;

/** Products as a REST resource, with streaming bulk import. */
public final class CatalogRoutes implements RouteGroup {
  private final Resource<Product> products;
  private final long maxBodyBytes;
  private final long maxImportBytes;

  public CatalogRoutes(CatalogService catalog, long maxBodyBytes, long maxImportBytes) {
    this.products = new Resource<>(
        "/api/v1/products",
        "product",
        ProductJson::fromJson,
        ProductJson::toJson,
        Product::id,
        catalog::list,
        catalog::get,
        catalog::create,
        catalog::put,
        catalog::delete,
        catalog::importStream);
    this.maxBodyBytes = maxBodyBytes;
    this.maxImportBytes = maxImportBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    products.register(routing, maxBodyBytes, maxImportBytes);
  }
}

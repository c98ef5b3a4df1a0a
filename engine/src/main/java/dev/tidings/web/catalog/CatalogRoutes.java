package dev.tidings.web.catalog;

import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.ProductJson;
import dev.tidings.web.Resource;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.Uploads;
import io.helidon.webserver.http.HttpRouting;

/** Products as a REST resource, with streaming bulk import. */
public final class CatalogRoutes implements RouteGroup {
  private final Resource<Product> products;
  private final long maxBodyBytes;
  private final Uploads uploads;

  /** Import bodies past {@code maxImportBytes} are refused; larger ones wait in java.io.tmpdir. */
  public CatalogRoutes(CatalogService catalog, long maxBodyBytes, long maxImportBytes) {
    this(catalog, maxBodyBytes, Uploads.inTemporaryDirectory(maxImportBytes));
  }

  public CatalogRoutes(CatalogService catalog, long maxBodyBytes, Uploads uploads) {
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
    this.uploads = uploads;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    products.register(routing, maxBodyBytes, uploads);
  }
}

package dev.tidings.web;

import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.ProductJson;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Products as a REST resource, with streaming bulk import. */
public final class CatalogRoutes implements RouteGroup {
  private final CatalogService catalog;
  private final long maxBodyBytes;
  private final long maxImportBytes;

  public CatalogRoutes(CatalogService catalog, long maxBodyBytes, long maxImportBytes) {
    this.catalog = catalog;
    this.maxBodyBytes = maxBodyBytes;
    this.maxImportBytes = maxImportBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/api/v1/products", (request, response) -> {
      int limit = Requests.limit(request);
      var rows = catalog.list(Requests.query(request, "after"), limit);
      Json.ok(response, Page.of(rows, limit, ProductJson::toJson, Product::id));
    });
    routing.post("/api/v1/products/import", (request, response) ->
        Imports.handle(request, response, maxImportBytes, catalog::importStream));
    routing.post("/api/v1/products", (request, response) -> {
      Product product = ProductJson.fromJson(Json.read(request, maxBodyBytes));
      if (catalog.get(product.id()).isPresent()) {
        throw ApiProblem.conflict("product " + product.id() + " exists; PUT /api/v1/products/" + product.id() + " replaces it");
      }
      Product created = catalog.put(product);
      response.header(HeaderNames.LOCATION, "/api/v1/products/" + created.id());
      Json.write(response, 201, ProductJson.toJson(created));
    });
    routing.get("/api/v1/products/{id}", (request, response) -> {
      String id = Requests.path(request, "id");
      Json.ok(response, ProductJson.toJson(catalog.get(id).orElseThrow(() -> ApiProblem.notFound("no product with id " + id))));
    });
    routing.put("/api/v1/products/{id}", (request, response) -> {
      Product product = ProductJson.fromJson(withPathId(request, Json.read(request, maxBodyBytes)));
      Json.ok(response, ProductJson.toJson(catalog.put(product)));
    });
    routing.delete("/api/v1/products/{id}", (request, response) -> {
      String id = Requests.path(request, "id");
      if (!catalog.delete(id)) throw ApiProblem.notFound("no product with id " + id);
      response.status(204).send();
    });
  }

  /** PUT names the resource in its path; a body that names another id is a contradiction, not a rename. */
  static JsonNode withPathId(ServerRequest request, JsonNode body) {
    String id = Requests.path(request, "id");
    if (!(body instanceof ObjectNode object)) throw ApiProblem.unprocessable("the body must be a JSON object");
    JsonNode given = object.get("id");
    if (given == null || given.isNull()) {
      object.put("id", id);
    } else if (!given.isString() || !given.asString().equals(id)) {
      throw ApiProblem.unprocessable("id in the body (" + given + ") differs from the id in the path (" + id + ")");
    }
    return object;
  }
}

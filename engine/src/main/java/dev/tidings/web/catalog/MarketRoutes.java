package dev.tidings.web.catalog;

import dev.tidings.Json;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.MarketJson;
import dev.tidings.catalog.Markets;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;

/**
 * Markets ({@code /api/v1/markets}, {@code /api/v1/markets/{code}}) and a product's prices in them
 * ({@code /api/v1/products/{id}/prices}).
 */
public final class MarketRoutes implements RouteGroup {
  private final Markets markets;
  private final CatalogService catalog;
  private final long maxBodyBytes;

  public MarketRoutes(Markets markets, CatalogService catalog, long maxBodyBytes) {
    this.markets = markets;
    this.catalog = catalog;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/api/v1/markets", (request, response) -> {
      var body = Json.MAPPER.createObjectNode();
      var items = body.putArray("items");
      markets.list().forEach(market -> items.add(MarketJson.toJson(market)));
      JsonBodies.ok(response, body);
    });
    routing.get("/api/v1/markets/{code}", (request, response) -> {
      String code = Requests.path(request, "code");
      JsonBodies.ok(
          response,
          MarketJson.toJson(markets
              .get(code)
              .orElseThrow(() -> ApiProblem.notFound("no market with code " + code))));
    });
    routing.put("/api/v1/markets/{code}", (request, response) -> {
      String code = Requests.path(request, "code");
      var market = MarketJson.fromJson(code, JsonBodies.read(request, maxBodyBytes));
      JsonBodies.ok(response, MarketJson.toJson(markets.put(market)));
    });
    routing.delete("/api/v1/markets/{code}", (request, response) -> {
      String code = Requests.path(request, "code");
      if (!markets.delete(code)) throw ApiProblem.notFound("no market with code " + code);
      response.status(204).send();
    });
    routing.get("/api/v1/products/{id}/prices", (request, response) -> {
      String id = product(request.path().pathParameters().get("id"));
      JsonBodies.ok(response, MarketJson.pricesToJson(markets.prices(id)));
    });
    routing.put("/api/v1/products/{id}/prices", (request, response) -> {
      String id = product(request.path().pathParameters().get("id"));
      var prices = MarketJson.pricesFromJson(JsonBodies.read(request, maxBodyBytes));
      markets.putPrices(id, prices);
      JsonBodies.ok(response, MarketJson.pricesToJson(markets.prices(id)));
    });
  }

  private String product(String id) {
    if (catalog.get(id).isEmpty()) throw ApiProblem.notFound("no product with id " + id);
    return id;
  }
}

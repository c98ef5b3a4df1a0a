package dev.tidings.web.optimize;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.optimize.ItemChange;
import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.optimize.OptimizationCriteria;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Page;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Item configurations ({@code /api/v1/items/{id}/configurations}: list with counts and intervals, create or
 * replace, read, delete), their counts in bulk ({@code POST /api/v1/item-configurations/counts}), and the
 * optimisation ({@code GET /api/v1/optimizations/items}: the items whose best configuration changed;
 * {@code POST}: make those winners current).
 */
public final class OptimizeRoutes implements RouteGroup {
  private static final String ITEMS = "/api/v1/items/{item}/configurations";
  /** Changes listed in a POST's answer; the count says how many were applied in all. */
  private static final int LISTED_CHANGES = 1_000;

  private final ItemConfigurations configurations;
  private final long maxBodyBytes;

  public OptimizeRoutes(ItemConfigurations configurations, long maxBodyBytes) {
    this.configurations = configurations;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(ITEMS, (request, response) -> {
      String item = item(request);
      var found = configurations.of(item);
      if (found.isEmpty()) throw ApiProblem.notFound("item " + item + " has no configurations");
      JsonBodies.ok(response, OptimizeJson.toJson(item, found));
    });
    routing.put(ITEMS + "/{configuration}", (request, response) -> {
      String item = item(request);
      String configuration = configuration(request);
      var body = OptimizeJson.configuration(JsonBodies.read(request, maxBodyBytes));
      var stored = configurations.put(item, configuration, body.attributes(), body.current());
      if (stored.created())
        response.header(
            HeaderNames.LOCATION, "/api/v1/items/" + item + "/configurations/" + configuration);
      JsonBodies.write(
          response, stored.created() ? 201 : 200, OptimizeJson.toJson(stored.configuration()));
    });
    routing.get(ITEMS + "/{configuration}", (request, response) -> {
      String item = item(request);
      String configuration = configuration(request);
      JsonBodies.ok(
          response,
          OptimizeJson.toJson(configurations
              .get(item, configuration)
              .orElseThrow(() ->
                  ApiProblem.notFound("item " + item + " has no configuration " + configuration))));
    });
    routing.delete(ITEMS + "/{configuration}", (request, response) -> {
      String item = item(request);
      String configuration = configuration(request);
      switch (configurations.delete(item, configuration)) {
        case DELETED -> response.status(204).send();
        case NOT_FOUND ->
          throw ApiProblem.notFound("item " + item + " has no configuration " + configuration);
        case IS_CURRENT ->
          throw ApiProblem.conflict("configuration " + configuration + " is item " + item
              + "'s current one; make another current first");
      }
    });
    routing.post("/api/v1/item-configurations/counts", (request, response) -> {
      var counts = OptimizeJson.counts(JsonBodies.read(request, maxBodyBytes));
      var recorded = configurations.record(counts);
      var json = Json.MAPPER.createObjectNode();
      json.put("configurations", recorded.configurations());
      json.put("impressions", recorded.impressions());
      json.put("conversions", recorded.conversions());
      JsonBodies.ok(response, json);
    });
    routing.get("/api/v1/optimizations/items", (request, response) -> {
      int limit = Requests.limit(request);
      var changes =
          configurations.changes(criteria(request), Requests.query(request, "after"), limit);
      JsonBodies.ok(response, Page.of(changes, limit, OptimizeJson::toJson, ItemChange::itemId));
    });
    routing.post("/api/v1/optimizations/items", (request, response) -> {
      var criteria = criteria(request);
      Optional<Collection<String>> only = request.content().hasEntity()
          ? Optional.of(items(JsonBodies.read(request, maxBodyBytes)))
          : Optional.empty();
      var applied = configurations.apply(criteria, only);
      var json = Json.MAPPER.createObjectNode();
      json.put("applied", applied.size());
      var listed = json.putArray("items");
      applied.stream()
          .limit(LISTED_CHANGES)
          .forEach(change -> listed.add(OptimizeJson.toJson(change)));
      json.put("truncated", applied.size() > LISTED_CHANGES);
      JsonBodies.ok(response, json);
    });
  }

  private static Collection<String> items(JsonNode body) {
    JsonNode items = body.path("items");
    if (!body.isObject() || !items.isArray() || items.isEmpty())
      throw new InvalidInputException(
          "expected {\"items\": [item ids]} naming the items to apply, or no body for all");
    var ids = new LinkedHashSet<String>();
    var problems = new ArrayList<String>();
    for (JsonNode id : items) {
      if (!id.isString() || !Problems.isId(id.asString()))
        problems.add(
            "items: " + id + " is not an item id (1-64 characters of A-Z a-z 0-9 . _ : -)");
      else ids.add(id.asString());
    }
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return ids;
  }

  private static OptimizationCriteria criteria(ServerRequest request) {
    double alpha = Requests.query(request, "alpha")
        .map(raw -> parse(raw, "alpha", Double::parseDouble))
        .orElse(OptimizationCriteria.DEFAULT_ALPHA);
    long minImpressions = Requests.query(request, "minImpressions")
        .map(raw -> parse(raw, "minImpressions", Long::parseLong))
        .orElse(OptimizationCriteria.DEFAULT_MIN_IMPRESSIONS);
    var correction = Requests.query(request, "correction")
        .map(OptimizationCriteria.Correction::parse)
        .orElse(OptimizationCriteria.defaults().correction());
    return new OptimizationCriteria(alpha, minImpressions, correction);
  }

  private static <T> T parse(String raw, String name, Function<String, T> parser) {
    try {
      return parser.apply(raw);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(Problem.notANumber(name, Problems.quote(raw)));
    }
  }

  private static String item(ServerRequest request) {
    String id = Requests.path(request, "item");
    if (!Problems.isId(id))
      throw ApiProblem.badRequest(
          "an item id is 1-64 characters of A-Z a-z 0-9 . _ : -, got " + Problems.quote(id));
    return id;
  }

  private static String configuration(ServerRequest request) {
    String id = Requests.path(request, "configuration");
    if (!Problems.isId(id))
      throw ApiProblem.badRequest(
          "a configuration id is 1-64 characters of A-Z a-z 0-9 . _ : -, got "
              + Problems.quote(id));
    return id;
  }
}

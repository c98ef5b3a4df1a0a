package dev.tidings.web.aggregate;

import dev.tidings.Json;
import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.activity.aggregate.KeyProblem;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The declared aggregations ({@code GET /api/v1/aggregations}, {@code PUT /api/v1/aggregations/{name}}:
 * a new or changed one counts the events that arrive within seconds of it on every node; {@code tidings
 * aggregates rebuild NAME} counts history) and what they counted. {@code GET /api/v1/aggregates?key=}: a whole key with its period reads that one aggregate; a key
 * without one reads every aggregate under its segments ({@code s@user:s@u-1} is all of u-1's),
 * optionally between the periods {@code from} and {@code to} ({@code 2026-11-01}, {@code 2026-11},
 * ...), at most {@code limit}.
 */
public final class AggregateRoutes implements RouteGroup {
  private static final String DEFINITIONS = "/api/v1/aggregations";
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.]{0,63}");

  private final AggregateStore store;
  private final AggregationDefinitions definitions;
  private final long maxBodyBytes;

  public AggregateRoutes(AggregateStore store, AggregationDefinitions definitions) {
    this.store = store;
    this.definitions = definitions;
    this.maxBodyBytes = 64 * 1024;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(
        DEFINITIONS,
        (request, response) -> JsonBodies.ok(
            response,
            new Definitions(
                definitions.all().stream().map(AggregateRoutes::toJson).toList())));
    routing.put(DEFINITIONS + "/{name}", (request, response) -> {
      String name = request.path().pathParameters().get("name");
      if (!NAME.matcher(name).matches())
        throw ApiProblem.badRequest(
            "an aggregation's name is 1-64 of a-z 0-9 _ . starting with a letter, got '" + name
                + "'");
      JsonNode body = JsonBodies.read(request, maxBodyBytes);
      if (!body.isObject())
        throw ApiProblem.badRequest("expected a JSON object: events, groupBy, scopes, measure,"
            + " algorithm and optionally enabled");
      // absent or null: enabled, as JSON null reads "not given" in every body
      JsonNode enabled = body.path("enabled");
      if (!enabled.isMissingNode() && !enabled.isNull() && !enabled.isBoolean())
        throw ApiProblem.badRequest("enabled must be true or false");
      ObjectNode definition = ((ObjectNode) body).deepCopy();
      definition.remove("enabled");
      boolean created = definitions.put(name, definition, enabled.asBoolean(true));
      var stored = definitions.all().stream()
          .filter(d -> d.name().equals(name))
          .findFirst()
          .orElseThrow();
      JsonBodies.write(response, created ? 201 : 200, toJson(stored));
    });
    routing.get("/api/v1/aggregates", (request, response) -> {
      String key = Requests.query(request, "key")
          .orElseThrow(() -> ApiProblem.badRequest(
              "the query parameter 'key' is required: an aggregate key such as"
                  + " s@item:s@p-1:s@item_popularity:s@popularity:b@2026-11, or a prefix of one"));
      int limit = Requests.limit(request);
      List<AggregateStore.Entry> entries;
      String prefix = key.endsWith(":") ? key.substring(0, key.length() - 1) : key;
      AggregateKey parsed = KeyProblem.reading("key", () -> AggregateKey.parse(prefix));
      if (parsed.bucket().isPresent()) {
        entries = store.read(parsed.hashKey(), parsed.rangeKey(), parsed.rangeKey(), limit).stream()
            .filter(entry -> entry.key().equals(parsed))
            .toList();
      } else {
        String from = period(Requests.query(request, "from").orElse(""), "from");
        String to = period(Requests.query(request, "to").orElse(""), "to");
        entries = store.under(parsed, from, to, limit);
      }
      JsonBodies.write(
          response,
          200,
          new Page(entries.stream()
              .map(entry -> new Item(
                  entry.key().format(),
                  entry.key().hashKey(),
                  entry.key().rangeKey(),
                  entry.value()))
              .toList()));
    });
  }

  /** A period bound, checked by the keys' own grammar; empty for none. */
  private static String period(String text, String name) {
    if (text.isEmpty()) return text;
    return KeyProblem.reading(name, () -> KeyPart.Bucket.parse(text).text());
  }

  private static ObjectNode toJson(AggregationDefinitions.Stored stored) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("name", stored.name());
    node.put("enabled", stored.enabled());
    node.put("updatedAt", stored.updatedAt().toString());
    node.setAll((ObjectNode) stored.definition());
    return node;
  }

  record Definitions(List<ObjectNode> items) {}

  record Item(String key, String hashKey, String rangeKey, double value) {}

  record Page(List<Item> items) {}
}

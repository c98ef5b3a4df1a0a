package dev.tidings.web.aggregate;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.activity.aggregate.KeyProblem;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;
import java.util.List;

/**
 * {@code GET /api/v1/aggregates?key=}: a whole key with its period reads that one aggregate; a key
 * without one reads every aggregate under its segments ({@code s@user:s@u-1} is all of u-1's),
 * optionally between the periods {@code from} and {@code to} ({@code 2026-11-01}, {@code 2026-11},
 * ...), at most {@code limit}.
 */
public final class AggregateRoutes implements RouteGroup {
  private final AggregateStore store;

  public AggregateRoutes(AggregateStore store) {
    this.store = store;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/api/v1/aggregates", (request, response) -> {
      String key = Requests.query(request, "key")
          .orElseThrow(() -> ApiProblem.badRequest(
              "the query parameter 'key' is required: an aggregate key such as"
                  + " s@item:s@p-1:s@item_popularity:s@popularity:b@2026-11, or a prefix of one"));
      int limit = Requests.limit(request);
      List<AggregateStore.Entry> entries;
      try {
        String prefix = key.endsWith(":") ? key.substring(0, key.length() - 1) : key;
        AggregateKey parsed = AggregateKey.parse(prefix);
        if (parsed.bucket().isPresent()) {
          entries =
              store.read(parsed.hashKey(), parsed.rangeKey(), parsed.rangeKey(), limit).stream()
                  .filter(entry -> entry.key().equals(parsed))
                  .toList();
        } else {
          String from = period(Requests.query(request, "from").orElse(""), "from");
          String to = period(Requests.query(request, "to").orElse(""), "to");
          entries = store.under(parsed, from, to, limit);
        }
      } catch (KeyProblem e) {
        throw ApiProblem.badRequest("key: " + e.getMessage());
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
    try {
      return KeyPart.Bucket.parse(text).text();
    } catch (KeyProblem e) {
      throw ApiProblem.badRequest(name + ": " + e.getMessage());
    }
  }

  record Item(String key, String hashKey, String rangeKey, double value) {}

  record Page(List<Item> items) {}
}

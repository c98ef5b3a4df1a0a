package dev.tidings.web.dashboard;

import dev.tidings.Json;
import dev.tidings.config.Secret;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A subscriber's recommendations, asked of this node's own API ({@code GET
 * /api/v1/users/{id}/recommendations?n=10}) over loopback: the explorer shows exactly what the API
 * answers, whichever recommender serves it, without knowing that capability's classes.
 */
final class Recommendations {
  static final int COUNT = 10;
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final Secret apiKey;

  Recommendations(Secret apiKey) {
    this.apiKey = apiKey;
  }

  /** One recommended product, its score and the algorithms that put it there. */
  record Item(String id, double score, List<String> reasons) {}

  /** What the API answered. */
  sealed interface Answer {}

  record Found(List<Item> items) implements Answer {}

  /** 404: no recommendations for this subscriber yet (or no recommender on this node yet). */
  record NoneYet() implements Answer {}

  record Failed(String why) implements Answer {}

  Answer of(int port, String subscriberId) {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/api/v1/users/"
            + URLEncoder.encode(subscriberId, StandardCharsets.UTF_8).replace("+", "%20")
            + "/recommendations?n=" + COUNT))
        .timeout(TIMEOUT)
        .header("Authorization", "Bearer " + apiKey.value())
        .GET()
        .build();
    try {
      var response = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 404) return new NoneYet();
      if (response.statusCode() != 200)
        return new Failed("the recommendations API answered " + response.statusCode());
      return parse(response.body());
    } catch (IOException e) {
      return new Failed("the recommendations API did not answer: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failed("interrupted");
    }
  }

  static Answer parse(String body) {
    try {
      JsonNode items = Json.MAPPER.readTree(body).path("items");
      if (!items.isArray()) return new Failed("the answer has no items list");
      List<Item> found = new ArrayList<>();
      for (JsonNode item : items) {
        List<String> reasons = new ArrayList<>();
        for (JsonNode reason : item.path("reasons")) reasons.add(reason.asString());
        found.add(new Item(item.path("id").asString(), item.path("score").asDouble(), reasons));
      }
      return found.isEmpty() ? new NoneYet() : new Found(found);
    } catch (JacksonException e) {
      return new Failed("the answer is not JSON");
    }
  }
}

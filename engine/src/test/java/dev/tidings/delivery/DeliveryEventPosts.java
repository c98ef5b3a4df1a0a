package dev.tidings.delivery;

import dev.tidings.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipts posted to {@code /api/v1/delivery-events} as a provider does under faults: the same request
 * again on a 503 or a dropped connection until it is answered 2xx; any other answer fails the test.
 */
public final class DeliveryEventPosts {
  private DeliveryEventPosts() {}

  /** Posts {@code receipts} as one request of the generic API until it is answered 2xx. */
  public static void untilAccepted(
      HttpClient client,
      URI endpoint,
      String apiKey,
      List<Receipt> receipts,
      Duration settle,
      AtomicInteger refused)
      throws InterruptedException {
    ArrayNode body = Json.MAPPER.createArrayNode();
    for (Receipt receipt : receipts) {
      ObjectNode event = body.addObject();
      event.put("messageId", receipt.messageId());
      event.put("status", receipt.status().wire());
      event.put("timestamp", receipt.at().toString());
      receipt.userAgent().ifPresent(agent -> event.put("userAgent", agent));
    }
    untilAccepted(
        client,
        HttpRequest.newBuilder(endpoint)
            .header("Authorization", "Bearer " + apiKey)
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(Json.MAPPER.writeValueAsString(body)))
            .build(),
        settle,
        refused);
  }

  /** Sends {@code request} until it is answered 2xx, counting each 503 or dropped connection. */
  public static void untilAccepted(
      HttpClient client, HttpRequest request, Duration settle, AtomicInteger refused)
      throws InterruptedException {
    long deadline = System.nanoTime() + settle.toNanos();
    while (true) {
      int status;
      String answer;
      try {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        status = response.statusCode();
        answer = response.body();
      } catch (IOException e) {
        status = 0;
        answer = e.toString();
      }
      if (status / 100 == 2) return;
      if (status != 503 && status != 0)
        throw new AssertionError("delivery-events answered " + status + ": " + answer);
      refused.incrementAndGet();
      if (System.nanoTime() > deadline)
        throw new AssertionError("delivery-events never answered 2xx; last: " + answer);
      Thread.sleep(100);
    }
  }
}

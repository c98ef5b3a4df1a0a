package dev.tidings.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidings.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * A campaign driven over a node's HTTP API as a shop's backend would, for tests that run node processes
 * and break things under them: subscribers {@code r00000@example.test} onwards, a plain campaign to all
 * of them, its progress read while nodes or servers come and go (an answer that is not 200 is no
 * progress, not a failure), and what each worker wrote to its outbox.
 */
public record CampaignClient(HttpClient http, String apiKey) {
  public static String recipient(int i) {
    return "r%05d@example.test".formatted(i);
  }

  /** Imports subscribers {@code r00000} to {@code count - 1}, every one subscribed. */
  public void importSubscribers(NodeProcess node, int count) throws Exception {
    String lines = IntStream.range(0, count)
        .mapToObj(i -> "{\"id\": \"r%05d\", \"email\": \"%s\", \"consent\": \"subscribed\"}"
            .formatted(i, recipient(i)))
        .collect(Collectors.joining("\n", "", "\n"));
    var answer = send(node, "POST", "/api/v1/subscribers/import", "application/x-ndjson", lines);
    assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
  }

  /** Creates a plain campaign to every subscriber and starts sending it; answers its id. */
  public long startCampaign(NodeProcess node, String name, int ratePerSecond) throws Exception {
    var created = send(
        node, "POST", "/api/v1/campaigns", "application/json", """
        {"name": "%s", "from": {"email": "news@shop.test"},
         "subject": "Hello", "html": "<p>Hello</p><a href=\\"{{unsubscribeUrl}}\\">Unsubscribe</a>",
         "text": "Hello", "ratePerSecond": %d, "audience": {"type": "all"}}""".formatted(name, ratePerSecond));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    long id = Json.MAPPER.readTree(created.body()).path("id").asLong();
    var started = send(node, "POST", "/api/v1/campaigns/" + id + "/send", "application/json", "");
    assertThat(started.statusCode()).as(started.body()).isIn(200, 202);
    return id;
  }

  /** The campaign as the API shows it, or empty while the node cannot answer. */
  public Optional<JsonNode> campaign(NodeProcess node, long id) {
    try {
      var answer = send(node, "GET", "/api/v1/campaigns/" + id, "application/json", "");
      if (answer.statusCode() != 200) return Optional.empty();
      return Optional.of(Json.MAPPER.readTree(answer.body()));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** How many were sent, once at least {@code atLeast}; fails after {@code wait}. */
  public long awaitSent(NodeProcess node, long id, long atLeast, Duration wait) throws Exception {
    return await("%d emails of campaign %d sent".formatted(atLeast, id))
        .atMost(wait)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> campaign(node, id)
                .map(json -> json.path("progress").path("sent").asLong())
                .orElse(0L),
            sent -> sent >= atLeast);
  }

  /** The campaign's progress once it completed; fails after {@code wait}. */
  public JsonNode awaitCompleted(NodeProcess node, long id, Duration wait) throws Exception {
    return await("campaign %d completed".formatted(id))
        .atMost(wait)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> campaign(node, id),
            json -> json.isPresent() && json.get().path("state").asString().startsWith("COMPLETED"))
        .orElseThrow()
        .path("progress");
  }

  /** The recipient of every email in the node's outbox (the outbox transport's files). */
  public static List<String> outboxRecipients(NodeProcess node) throws IOException {
    Path outbox = node.dataDir().resolve("outbox");
    if (!Files.isDirectory(outbox)) return List.of();
    try (Stream<Path> files = Files.walk(outbox)) {
      List<String> recipients = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
        String to = Files.readAllLines(file).stream()
            .filter(line -> line.startsWith("To: "))
            .findFirst()
            .orElseThrow();
        recipients.add(to.substring(4).trim());
      }
      return recipients;
    }
  }

  public HttpResponse<String> send(
      NodeProcess node, String method, String path, String type, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(node.uri(path))
            .header("Authorization", "Bearer " + apiKey)
            .header("Content-Type", type)
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(20))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

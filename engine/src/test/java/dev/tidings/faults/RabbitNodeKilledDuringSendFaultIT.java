package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.RabbitCluster;
import dev.tidings.testing.SharedServersInstallation;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 2b: a campaign sends through a server node and two workers whose {@code TIDINGS_AMQP_URL}
 * names the three nodes of a RabbitMQ cluster with quorum queues; the node leading the send queue is
 * killed (SIGKILL) mid-send. Every recipient gets one email (in the workers' outboxes) or is counted
 * unknown by the campaign's progress; none gets two.
 */
@Timeout(400)
class RabbitNodeKilledDuringSendFaultIT {
  private static final String KEY = "tk_rabbit_node_killed_key_0123456789";
  private static final int RECIPIENTS = 1_500;
  private final HttpClient http = HttpClient.newHttpClient();

  private static RabbitCluster cluster;

  @BeforeAll
  static void servers() {
    cluster = RabbitCluster.get();
  }

  @Test
  void the_node_leading_the_send_queue_killed_mid_send_leaves_no_recipient_twice_or_without_word()
      throws Exception {
    var installation = SharedServersInstallation.create("rabbitkill", KEY);
    var environment = installation.environment();
    environment.put("TIDINGS_AMQP_URL", cluster.amqpUrl().toString());
    environment.put("TIDINGS_AMQP_QUEUE_TYPE", "quorum");
    environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
    var nodes = new ArrayList<NodeProcess>();
    int killed = 0;
    try {
      var server = NodeProcess.start(environment);
      var first = NodeProcess.start("worker", List.of(), environment);
      var second = NodeProcess.start("worker", List.of(), environment);
      nodes.addAll(List.of(server, first, second));
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      subscribers(server);
      long campaign = campaign(server);

      awaitSent(server, campaign, 300);
      killed = cluster.leaderOf(environment.get("TIDINGS_SEND_QUEUE") + ".p0");
      if (killed == 0) killed = 1;
      long sentBefore = progress(server, campaign).path("sent").asLong();
      long killedAt = System.nanoTime();
      cluster.kill(killed);
      awaitSent(server, campaign, sentBefore + 1);
      Duration recovery = Duration.ofNanos(System.nanoTime() - killedAt);

      JsonNode done = awaitCompleted(server, campaign);
      long unknown = done.path("unknown").asLong();
      List<String> emailed = new ArrayList<>();
      for (NodeProcess node : List.of(first, second)) emailed.addAll(outbox(node));
      var distinct = new HashSet<>(emailed);
      long lost = Math.max(0, RECIPIENTS - distinct.size() - unknown);
      var outcome = new FaultReport.Outcome(
          "2b RabbitMQ node killed during a campaign send",
          "3-node RabbitMQ 3.10, quorum queues; a server and two workers; PostgreSQL, Redis",
          RECIPIENTS,
          emailed.size(),
          lost,
          emailed.size() - distinct.size(),
          unknown,
          recovery,
          String.format(
              "SIGKILL to %s (leading the send queue) after %d of %d sent; progress at the end:"
                  + " sent %d, failed %d, unknown %d; recovery is the kill to the next email"
                  + " counted sent",
              cluster.nodeName(killed),
              sentBefore,
              RECIPIENTS,
              done.path("sent").asLong(),
              done.path("failed").asLong(),
              unknown));
      FaultReport.recordAndCheck(outcome);
      assertThat(done.path("failed").asLong()).as("failed").isZero();
      assertThat(done.path("sent").asLong() + unknown)
          .as("every recipient sent or unknown")
          .isEqualTo(RECIPIENTS);
    } finally {
      for (NodeProcess node : nodes) node.close();
      installation.drop();
      if (killed > 0) cluster.start(killed);
    }
  }

  private void subscribers(NodeProcess node) throws Exception {
    String lines = IntStream.range(0, RECIPIENTS)
        .mapToObj(i ->
            "{\"id\": \"r%05d\", \"email\": \"r%05d@example.test\", \"consent\": \"subscribed\"}"
                .formatted(i, i))
        .collect(Collectors.joining("\n", "", "\n"));
    var answer = send(node, "POST", "/api/v1/subscribers/import", "application/x-ndjson", lines);
    assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
  }

  private long campaign(NodeProcess node) throws Exception {
    var created = send(node, "POST", "/api/v1/campaigns", "application/json", """
        {"name": "Broker node lost", "from": {"email": "news@shop.test"},
         "subject": "Hello", "html": "<p>Hello</p><a href=\\"{{unsubscribeUrl}}\\">Unsubscribe</a>",
         "text": "Hello", "ratePerSecond": 100, "audience": {"type": "all"}}""");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    long id = Json.MAPPER.readTree(created.body()).path("id").asLong();
    var started = send(node, "POST", "/api/v1/campaigns/" + id + "/send", "application/json", "");
    assertThat(started.statusCode()).as(started.body()).isIn(200, 202);
    return id;
  }

  private JsonNode progress(NodeProcess node, long campaign) throws Exception {
    var answer = send(node, "GET", "/api/v1/campaigns/" + campaign, "application/json", "");
    return Json.MAPPER.readTree(answer.body()).path("progress");
  }

  private void awaitSent(NodeProcess node, long campaign, long atLeast) throws Exception {
    Instant deadline = Instant.now().plusSeconds(120);
    while (progress(node, campaign).path("sent").asLong() < atLeast) {
      assertThat(Instant.now()).as("%d emails sent", atLeast).isBefore(deadline);
      Thread.sleep(100);
    }
  }

  private JsonNode awaitCompleted(NodeProcess node, long campaign) throws Exception {
    Instant deadline = Instant.now().plusSeconds(200);
    while (true) {
      var answer = send(node, "GET", "/api/v1/campaigns/" + campaign, "application/json", "");
      JsonNode json = Json.MAPPER.readTree(answer.body());
      if (json.path("state").asString().startsWith("COMPLETED")) return json.path("progress");
      assertThat(Instant.now()).as("campaign completed; last: %s", json).isBefore(deadline);
      Thread.sleep(250);
    }
  }

  private static List<String> outbox(NodeProcess node) throws IOException {
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

  private HttpResponse<String> send(
      NodeProcess node, String method, String path, String type, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(node.uri(path).toString()))
            .header("Authorization", "Bearer " + KEY)
            .header("Content-Type", type)
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(20))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

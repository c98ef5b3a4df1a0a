package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.testing.NodeProcess;
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
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Nodes stopped as systemd or Kubernetes stop them (SIGTERM) while a campaign is sending, on the real
 * PostgreSQL, Redis and RabbitMQ: a server node and a worker node each stop within their grace, quietly
 * and with exit 0, and the campaign finishes on the nodes left, every recipient getting one email.
 */
@Timeout(300)
class StopMidCampaignIT {
  private static final String KEY = "tk_stop_mid_campaign_key_0123456789";
  private static final int RECIPIENTS = 1_500;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void a_server_and_a_worker_stopped_mid_campaign_leave_it_to_the_others_who_finish_it()
      throws Exception {
    var installation = SharedServersInstallation.create("stop", KEY);
    var environment = installation.environment();
    environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
    environment.put("TIDINGS_SHUTDOWN_GRACE", "PT10S");
    var nodes = new ArrayList<NodeProcess>();
    try {
      var leaving = NodeProcess.start(environment);
      var staying = NodeProcess.start(environment);
      var stoppedWorker = NodeProcess.start("worker", List.of(), environment);
      var worker = NodeProcess.start("worker", List.of(), environment);
      nodes.addAll(List.of(leaving, staying, stoppedWorker, worker));
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      subscribers(leaving);
      long campaign = campaign(leaving);

      awaitSent(staying, campaign, 150);
      stop(stoppedWorker, "worker");
      assertThat(progress(staying, campaign).path("sent").asLong())
          .as("the campaign was still sending when the worker had stopped")
          .isLessThan(RECIPIENTS);
      stop(leaving, "serve");

      JsonNode done = awaitCompleted(staying, campaign);
      assertThat(done.path("sent").asLong()).isEqualTo(RECIPIENTS);
      assertThat(done.path("failed").asLong()).isZero();
      assertThat(done.path("unknown").asLong()).isZero();
      List<String> recipients = new ArrayList<>();
      for (NodeProcess node : List.of(stoppedWorker, worker)) recipients.addAll(outbox(node));
      assertThat(recipients)
          .as("each recipient got one email, from one worker or the other")
          .hasSize(RECIPIENTS)
          .doesNotHaveDuplicates();
      assertThat(outbox(stoppedWorker))
          .as("the stopped worker had sent its share")
          .isNotEmpty();
      assertThat(outbox(worker)).as("the worker left finished the campaign").isNotEmpty();
    } finally {
      for (NodeProcess node : nodes) node.close();
      installation.drop();
    }
  }

  private void stop(NodeProcess node, String role) throws Exception {
    long start = System.nanoTime();
    node.signal("TERM");
    var status = node.awaitExit(Duration.ofSeconds(40));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    String log = node.log();
    assertThat(status).as("%s exit status; its log:%n%s", role, log).hasValue(0);
    assertThat(took)
        .as("%s stopped within its grace and its steps", role)
        .isLessThan(Duration.ofSeconds(25));
    String stopping = log.substring(log.indexOf("stopping..."));
    assertThat(stopping)
        .as("what %s logged while stopping", role)
        .contains("stopped.")
        .doesNotContain(" WARN ")
        .doesNotContain(" ERROR ")
        .doesNotContain("Exception");
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
        {"name": "Stopped mid-way", "from": {"email": "news@shop.test"},
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
    Instant deadline = Instant.now().plusSeconds(90);
    while (progress(node, campaign).path("sent").asLong() < atLeast) {
      assertThat(Instant.now()).as("%d emails sent", atLeast).isBefore(deadline);
      Thread.sleep(100);
    }
  }

  private JsonNode awaitCompleted(NodeProcess node, long campaign) throws Exception {
    Instant deadline = Instant.now().plusSeconds(150);
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

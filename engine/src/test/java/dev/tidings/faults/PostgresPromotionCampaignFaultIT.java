package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.PostgresStandbyPair;
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
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 3a: a server node and two worker processes send a campaign on a PostgreSQL primary with
 * a synchronous standby, named together in the nodes' multi-host {@code TIDINGS_DB_URL}; mid-send
 * the primary is killed (SIGKILL) and the standby promoted. The nodes find the new primary by
 * themselves; the campaign completes, every recipient got one email (the workers' outboxes) or is
 * reported unknown, none got two. Redis and RabbitMQ are the machine's, with queues of the
 * installation's own.
 */
@Timeout(300)
class PostgresPromotionCampaignFaultIT {
  private static final String KEY = "tk_pg_promotion_campaign_key_0123456789";
  private static final int RECIPIENTS = 1_000;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void a_campaign_completes_once_per_recipient_across_a_promotion() throws Exception {
    var installation = SharedServersInstallation.create("pgpromo", KEY);
    var nodes = new ArrayList<NodeProcess>();
    try (var pair = PostgresStandbyPair.start(PostgresStandbyPair.Replication.SYNCHRONOUS)) {
      var environment = installation.environment();
      environment.put("TIDINGS_DB_URL", pair.multiHostUrl());
      environment.put("TIDINGS_DB_POOL_SIZE", "8");
      environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
      var server = NodeProcess.start(environment);
      var workers = List.of(
          NodeProcess.start("worker", List.of(), environment),
          NodeProcess.start("worker", List.of(), environment));
      nodes.add(server);
      nodes.addAll(workers);
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      subscribers(server);
      long campaign = campaign(server);

      long sentAtKill = awaitSent(server, campaign, RECIPIENTS / 5);
      long killedAt = System.nanoTime();
      pair.killPrimary();
      pair.promoteStandby();
      long promotedAt = System.nanoTime();
      assertThat(sentAtKill)
          .as("the campaign was still sending at the kill")
          .isLessThan(RECIPIENTS);
      // the first send recorded after the kill was written on the promoted standby
      long sentAfter = sentAtKill;
      while (sentAfter <= sentAtKill) {
        sentAfter = progress(server, campaign)
            .map(json -> json.path("progress").path("sent").asLong())
            .orElse(sentAtKill);
        assertThat(System.nanoTime() - killedAt)
            .as("sending resumed on the promoted standby within 90 s")
            .isLessThan(Duration.ofSeconds(90).toNanos());
        Thread.sleep(100);
      }
      Duration recovery = Duration.ofNanos(System.nanoTime() - killedAt);
      Duration promotion = Duration.ofNanos(promotedAt - killedAt);

      JsonNode done = awaitCompleted(server, campaign);
      for (NodeProcess node : nodes)
        assertThat(node.alive())
            .as("a node survived the promotion; its log:%n%s", node.log())
            .isTrue();
      List<String> emailed = new ArrayList<>();
      for (NodeProcess worker : workers) emailed.addAll(outbox(worker));
      List<String> recipients = IntStream.range(0, RECIPIENTS)
          .mapToObj(i -> "r%05d@example.test".formatted(i))
          .toList();
      long unknown = done.path("unknown").asLong();
      Tally tally = Tally.of(recipients, emailed);
      // a recipient reported unknown may have no email (the send's outcome was not recorded): not
      // lost
      long lost = Math.max(0, tally.lost() - unknown);
      FaultReport.recordAndCheck(new FaultReport.Outcome(
          "3a PostgreSQL primary killed, standby promoted, during a campaign",
          "PostgreSQL primary + synchronous streaming standby (multi-host URL), 1 server + 2 worker"
              + " processes, Redis, RabbitMQ",
          tally.acknowledged(),
          tally.stored(),
          lost,
          tally.duplicated(),
          unknown,
          recovery,
          "promotion took " + promotion.toMillis() + " ms; " + sentAtKill + " sent at the kill; "
              + "progress sent " + done.path("sent").asLong() + ", failed "
              + done.path("failed").asLong() + ", unknown " + unknown));
      assertThat(done.path("sent").asLong() + done.path("failed").asLong() + unknown)
          .as("every recipient accounted for")
          .isEqualTo(RECIPIENTS);
      assertThat(new HashSet<>(emailed))
          .as("only the campaign's recipients")
          .isSubsetOf(recipients);
    } finally {
      for (NodeProcess node : nodes) node.close();
      installation.drop();
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
        {"name": "Promoted mid-way", "from": {"email": "news@shop.test"},
         "subject": "Hello", "html": "<p>Hello</p><a href=\\"{{unsubscribeUrl}}\\">Unsubscribe</a>",
         "text": "Hello", "ratePerSecond": 80, "audience": {"type": "all"}}""");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    long id = Json.MAPPER.readTree(created.body()).path("id").asLong();
    var started = send(node, "POST", "/api/v1/campaigns/" + id + "/send", "application/json", "");
    assertThat(started.statusCode()).as(started.body()).isIn(200, 202);
    return id;
  }

  /** The campaign's progress, or empty while the node cannot read it (mid-promotion). */
  private Optional<JsonNode> progress(NodeProcess node, long campaign) {
    try {
      var answer = send(node, "GET", "/api/v1/campaigns/" + campaign, "application/json", "");
      if (answer.statusCode() != 200) return Optional.empty();
      return Optional.of(Json.MAPPER.readTree(answer.body()));
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  private long awaitSent(NodeProcess node, long campaign, long atLeast) throws Exception {
    Instant deadline = Instant.now().plusSeconds(90);
    while (true) {
      long sent = progress(node, campaign)
          .map(json -> json.path("progress").path("sent").asLong())
          .orElse(0L);
      if (sent >= atLeast) return sent;
      assertThat(Instant.now()).as("%d emails sent", atLeast).isBefore(deadline);
      Thread.sleep(50);
    }
  }

  private JsonNode awaitCompleted(NodeProcess node, long campaign) throws Exception {
    Instant deadline = Instant.now().plusSeconds(150);
    while (true) {
      var json = progress(node, campaign);
      if (json.isPresent() && json.get().path("state").asString().startsWith("COMPLETED"))
        return json.get().path("progress");
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

package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.message.MessageId;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.Repository;
import dev.tidings.testing.SharedServersInstallation;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What an operator's Prometheus sees of a campaign, on a server node and a worker node sharing the real
 * PostgreSQL, Redis and RabbitMQ: a scheduled campaign with an experiment and open-time slots is sent,
 * its emails are opened (first opens and re-opens) and their deliveries reported by webhook, and each
 * domain metric moves as it should, summed over both nodes as a dashboard sums them. A second campaign
 * to ten times as many people adds no series: no label ever carries a subscriber, message or campaign.
 * Every metric the alert rules and the Grafana board in {@code deploy/} name is among those exported.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(420)
class OperatorMetricsIT {
  private static final String KEY = "tk_metrics_test_key_0123456789";
  private static final String HOOK_USER = "postmark";
  private static final String HOOK_PASSWORD = "metrics-hook-password-0123";
  private static final int FIRST = 20;
  private static final int OPENED = 8;
  private static final Pattern OPEN_URL = Pattern.compile("src=\"(https?://[^\"]+/o/[^\"/]+/0)\"");
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)");

  private SharedServersInstallation installation;
  private final HttpClient http = HttpClient.newHttpClient();
  private NodeProcess server;
  private NodeProcess worker;
  private ApiClient api;

  @BeforeAll
  void start() throws Exception {
    installation = SharedServersInstallation.create("metrics", KEY);
    var environment = installation.environment();
    environment.put("TIDINGS_POSTMARK_WEBHOOK_USER", HOOK_USER);
    environment.put("TIDINGS_POSTMARK_WEBHOOK_PASSWORD", HOOK_PASSWORD);
    server = NodeProcess.start(environment);
    worker = NodeProcess.start("worker", List.of(), environment);
    server.awaitHealthy(http, Duration.ofSeconds(90));
    worker.awaitHealthy(http, Duration.ofSeconds(90));
    api = new ApiClient(server.uri("/").getPort(), KEY);
    // an outgoing webhook endpoint no delivery reaches (the fetch rules refuse a loopback address):
    // every event fails there, so the per-endpoint failure series the alert rules name is exported
    var endpoint = api.postJson("/api/v1/webhooks", "{\"url\": \"https://127.0.0.1:9/hook\"}");
    assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(201);
    // message ids are (campaign, run, subscriber): a fresh database numbers its campaigns from 1
    // again, and the shared Redis still holds the open-time lists of earlier runs' campaign 1
    try (var connection = DriverManager.getConnection(installation.databaseUrl());
        var statement = connection.createStatement()) {
      statement.execute("SELECT setval(pg_get_serial_sequence('campaigns', 'id'), "
          + (1_000_000 + new Random().nextInt(1_000_000_000)) + ")");
    }
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (server != null) server.close();
      if (worker != null) worker.close();
    } finally {
      if (installation != null) installation.drop();
    }
  }

  @Test
  void each_domain_metric_moves_with_a_campaign_and_ten_times_the_recipients_add_no_series()
      throws Exception {
    for (int i = 0; i < 8; i++) product("p" + i, "velin");
    subscribers(0, FIRST);
    assertThat(api.putJson("/api/v1/subscribers/reader-00000/follows/brand/velin", "")
            .status())
        .isIn(200, 201, 204);
    product("p-new", "velin"); // news for the follower: a fan-out
    Metrics before = scrape();

    long first = campaign("Metrics: first");
    awaitCompleted(first);
    List<Email> sent = outbox();
    assertThat(sent).hasSize(FIRST);
    engage(sent.subList(0, OPENED));
    assertThat(api.get("/api/v1/users/reader-00001/recommendations").status()).isEqualTo(200);
    Metrics after = awaitMetric("tidings_receipts_total", Map.of("status", "delivered"), OPENED);

    assertThat(after.sum("tidings_campaign_scheduler_actions_total", Map.of("action", "started"))
            - before.sum("tidings_campaign_scheduler_actions_total", Map.of("action", "started")))
        .as("the scheduler started the scheduled campaign")
        .isEqualTo(1);
    assertThat(after.sum("tidings_send_emails_total", Map.of("outcome", "sent")))
        .isEqualTo(FIRST);
    assertThat(after.sum("tidings_send_emails_total", Map.of("outcome", "failed")))
        .isZero();
    assertThat(after.sum("tidings_mail_replies_total", Map.of("class", "2xx"))).isEqualTo(FIRST);
    assertThat(after.sum("tidings_mail_replies_total", Map.of("class", "4xx"))).isZero();
    assertThat(after.sum("tidings_send_partitions_in_flight", Map.of())).isZero();
    assertThat(after.max("tidings_send_runs_running", Map.of())).isZero();
    assertThat(after.names()).contains("tidings_send_sweeper_actions_total");
    assertThat(after.sum("tidings_queue_deliveries_total", Map.of("kind", "first")))
        .as("send partitions, send receipts, engagements and webhook receipts went through queues")
        .isGreaterThanOrEqualTo(FIRST);
    assertThat(after.sum("tidings_queue_dead_letters_total", Map.of())).isZero();
    assertThat(after.labelValues("tidings_queue_depth", "queue")).hasSizeGreaterThanOrEqualTo(5);
    assertThat(after.labelValues("tidings_queue_oldest_age_seconds", "queue"))
        .hasSizeGreaterThanOrEqualTo(5);
    assertThat(after.sum(
            "tidings_webhook_requests_total", Map.of("provider", "postmark", "result", "accepted")))
        .isEqualTo(OPENED);
    assertThat(after.sum("tidings_receipts_total", Map.of("status", "sent"))).isEqualTo(FIRST);
    assertThat(after.sum("tidings_receipts_total", Map.of("status", "delivered")))
        .isEqualTo(OPENED);
    assertThat(after.sum("tidings_opentime_slot_list_seconds_count", Map.of("path", "computed")))
        .as("each email's first open computed its slots once")
        .isEqualTo(OPENED);
    assertThat(after.sum("tidings_opentime_slot_list_seconds_count", Map.of("path", "near_cache")))
        .as("the re-opens")
        .isGreaterThanOrEqualTo(OPENED);
    assertThat(after.sum("tidings_opentime_computed_total", Map.of())).isEqualTo(OPENED);
    assertThat(after.sum("tidings_recommend_seconds_count", Map.of()))
        .as("the slots' and the API's recommendations")
        .isGreaterThanOrEqualTo(OPENED + 1);
    assertThat(after.sum("tidings_notify_fanout_total", Map.of("source", "product_news")))
        .as("the new product told to its brand's follower")
        .isGreaterThanOrEqualTo(1);
    assertThat(after.names())
        .contains(
            "tidings_notify_digests_sent_total",
            "tidings_experiment_decisions_total",
            "tidings_aggregation_backlog_events",
            "tidings_aggregation_lag_seconds",
            "tidings_queue_retries_total");

    // ten times as many recipients, the same paths
    subscribers(FIRST, FIRST * 10);
    long second = campaign("Metrics: second");
    awaitCompleted(second);
    List<Email> all = outbox();
    assertThat(all).hasSize(FIRST + FIRST * 11);
    List<Email> secondEmails =
        all.stream().filter(email -> email.campaign() == second).toList();
    engage(secondEmails.subList(0, OPENED));
    Metrics tenTimes =
        awaitMetric("tidings_receipts_total", Map.of("status", "delivered"), 2.0 * OPENED);

    assertThat(tenTimes.sum("tidings_send_emails_total", Map.of("outcome", "sent")))
        .isEqualTo(FIRST + FIRST * 11);
    System.out.printf(
        "metrics series: %d after a campaign to %d recipients, %d after one to %d (server + worker)%n",
        after.series(), FIRST, tenTimes.series(), FIRST * 11);
    assertThat(tenTimes.series())
        .as("series after ten times the recipients")
        .isLessThanOrEqualTo(after.series() + 10);
    for (Email email : all) {
      assertThat(tenTimes.text()).doesNotContain(email.messageId());
      assertThat(tenTimes.text()).doesNotContain("\"" + email.subscriber() + "\"");
    }
    for (Path board : List.of(
        Repository.root().resolve("deploy/prometheus/tidings.rules.yml"),
        Repository.root().resolve("deploy/grafana/tidings.json"))) {
      List<String> named = Pattern.compile("\\btidings_[a-z0-9_]+")
          .matcher(Files.readString(board))
          .results()
          .map(MatchResult::group)
          .distinct()
          .toList();
      assertThat(named).as("metrics named in %s", board.getFileName()).hasSizeGreaterThan(5);
      assertThat(tenTimes.names())
          .as("what the nodes export, against the metrics %s names", board.getFileName())
          .containsAll(named);
    }
    assertThat(tenTimes.labels())
        .as("no label value is a campaign id")
        .noneMatch(
            label -> label.equals("\"" + first + "\"") || label.equals("\"" + second + "\""));
  }

  private void engage(List<Email> emails) throws Exception {
    for (Email email : emails) {
      Matcher open = OPEN_URL.matcher(email.html());
      assertThat(open.find()).as("an open-time slot in %s", email.messageId()).isTrue();
      for (int again = 0; again < 2; again++) {
        var answer = http.send(
            // the worker wrote it under its own address: the server is where people open it
            HttpRequest.newBuilder(server.uri(URI.create(open.group(1)).getRawPath()))
                .build(),
            HttpResponse.BodyHandlers.discarding());
        assertThat(answer.statusCode()).isEqualTo(200);
      }
      var event = Fixtures.withMessageId(
          Fixtures.json("postmark/anymail-tests/Delivery-delivered-event.json"),
          "Metadata",
          email.messageId());
      event.put("DeliveredAt", Instant.now().toString());
      var hook = http.send(
          HttpRequest.newBuilder(server.uri("/webhooks/postmark"))
              .header("Content-Type", "application/json")
              .header(
                  "Authorization",
                  "Basic "
                      + Base64.getEncoder()
                          .encodeToString(
                              (HOOK_USER + ":" + HOOK_PASSWORD).getBytes(StandardCharsets.UTF_8)))
              .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(event)))
              .build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(hook.statusCode()).isBetween(200, 299);
    }
  }

  private void product(String id, String brand) {
    var answer = api.putJson("/api/v1/products/" + id, """
        {"title": "Product %s", "brand": "%s", "price": "19.00", "currency": "EUR",
         "imageUrl": "https://img.shop.test/%s.jpg", "landingUrl": "https://shop.test/%s"}""".formatted(id, brand, id, id));
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
  }

  private void subscribers(int from, int count) {
    String lines = Stream.iterate(from, i -> i + 1)
        .limit(count)
        .map(i -> "{\"id\": \"%s\", \"email\": \"%s@example.test\", \"consent\": \"subscribed\"}"
            .formatted(subscriber(i), subscriber(i)))
        .collect(Collectors.joining("\n", "", "\n"));
    var answer = api.post("/api/v1/subscribers/import", "application/x-ndjson", lines);
    assertThat(answer.status()).as(answer.body()).isBetween(200, 299);
  }

  private static String subscriber(int i) {
    return "reader-%05d".formatted(i);
  }

  private long campaign(String name) {
    var created =
        api.postJson("/api/v1/campaigns", """
        {"name": "%s", "from": {"email": "news@shop.test", "name": "Shop"},
         "subject": "Picks for you",
         "html": "<html><body>{{#slots}}<a href=\\"{{clickUrl}}\\"><img src=\\"{{imageUrl}}\\"></a>{{/slots}} <a href=\\"{{unsubscribeUrl}}\\">Unsubscribe</a></body></html>",
         "text": "Picks for you", "slots": 3, "ratePerSecond": 1000,
         "scheduledAt": "%s",
         "audience": {"type": "all"},
         "experiment": {"allocation": "ab", "metric": "human_open", "testShare": 1, "alpha": 0.05,
           "variants": [{"name": "A"}, {"name": "B", "subject": "Your picks"}]}}""".formatted(name, Instant.now().plusSeconds(1)));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  private void awaitCompleted(long campaign) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    String state = "";
    while (System.nanoTime() < deadline) {
      state = api.get("/api/v1/campaigns/" + campaign).json().path("state").asString();
      if (state.startsWith("COMPLETED")) return;
      Thread.sleep(250);
    }
    throw new AssertionError("campaign " + campaign + " is " + state);
  }

  private Metrics awaitMetric(String name, Map<String, String> labels, double atLeast)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    Metrics metrics = scrape();
    while (metrics.sum(name, labels) < atLeast && System.nanoTime() < deadline) {
      Thread.sleep(250);
      metrics = scrape();
    }
    return metrics;
  }

  /** Both nodes' /metrics, as one Prometheus would hold them. */
  private Metrics scrape() throws Exception {
    var text = new StringBuilder();
    for (NodeProcess node : List.of(server, worker)) {
      var answer = http.send(
          HttpRequest.newBuilder(node.uri("/metrics"))
              .header("Authorization", "Bearer " + KEY)
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      text.append(answer.body());
    }
    return new Metrics(text.toString());
  }

  record Email(String messageId, long campaign, String subscriber, String html) {}

  private List<Email> outbox() throws Exception {
    Path outbox = worker.dataDir().resolve("outbox");
    List<Email> emails = new ArrayList<>();
    if (!Files.isDirectory(outbox)) return emails;
    try (Stream<Path> files = Files.walk(outbox)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
        var message = new MimeMessage(
            Session.getInstance(new Properties()),
            new ByteArrayInputStream(Files.readAllBytes(file)));
        String id = message.getHeader("X-Tidings-Message-Id", null);
        String raw = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        var parsed = MessageId.parse(id).orElseThrow();
        emails.add(new Email(id, parsed.campaignId(), parsed.subscriberId(), htmlOf(message, raw)));
      }
    }
    return emails;
  }

  private static String htmlOf(MimeMessage message, String raw) throws Exception {
    var parts = new StringBuilder();
    collect(message, parts);
    return parts.isEmpty() ? raw : parts.toString();
  }

  private static void collect(Part part, StringBuilder html) throws Exception {
    if (part.isMimeType("text/html")) html.append(part.getContent());
    else if (part.getContent() instanceof Multipart multipart)
      for (int i = 0; i < multipart.getCount(); i++) collect(multipart.getBodyPart(i), html);
  }

  /** A scrape in the Prometheus text format: samples by name and labels. */
  record Metrics(String text) {
    private Stream<String[]> samples() {
      return text.lines()
          .filter(line -> !line.startsWith("#") && !line.isBlank())
          .map(line -> {
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.find()) throw new AssertionError("not a sample: " + line);
            return new String[] {
              sample.group(1), sample.group(3) == null ? "" : sample.group(3), sample.group(4)
            };
          });
    }

    private static boolean matches(String labels, Map<String, String> wanted) {
      return wanted.entrySet().stream()
          .allMatch(entry -> labels.contains(entry.getKey() + "=\"" + entry.getValue() + "\""));
    }

    double sum(String name, Map<String, String> labels) {
      return samples()
          .filter(sample -> sample[0].equals(name) && matches(sample[1], labels))
          .mapToDouble(sample -> Double.parseDouble(sample[2]))
          .filter(value -> !Double.isNaN(value))
          .sum();
    }

    double max(String name, Map<String, String> labels) {
      return samples()
          .filter(sample -> sample[0].equals(name) && matches(sample[1], labels))
          .mapToDouble(sample -> Double.parseDouble(sample[2]))
          .max()
          .orElseThrow(() -> new AssertionError(name + " is not exported"));
    }

    List<String> names() {
      return samples().map(sample -> sample[0]).distinct().toList();
    }

    List<String> labelValues(String name, String label) {
      Pattern value = Pattern.compile(label + "=\"([^\"]*)\"");
      return samples()
          .filter(sample -> sample[0].equals(name))
          .map(sample -> value.matcher(sample[1]))
          .filter(Matcher::find)
          .map(matcher -> matcher.group(1))
          .distinct()
          .toList();
    }

    List<String> labels() {
      Pattern value = Pattern.compile("=(\"[^\"]*\")");
      return samples()
          .flatMap(sample -> value.matcher(sample[1]).results().map(result -> result.group(1)))
          .distinct()
          .toList();
    }

    long series() {
      return samples().count();
    }
  }
}

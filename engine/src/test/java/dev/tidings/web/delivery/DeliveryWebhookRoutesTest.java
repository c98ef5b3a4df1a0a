package dev.tidings.web.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.config.Secret;
import dev.tidings.config.WebhookSettings.PostmarkCredentials;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.InMemoryReplayGuard;
import dev.tidings.delivery.webhook.RecordingReceiptSink;
import dev.tidings.delivery.webhook.VerificationUnavailable;
import dev.tidings.delivery.webhook.mailgun.MailgunRequests;
import dev.tidings.delivery.webhook.mailgun.MailgunWebhook;
import dev.tidings.delivery.webhook.postmark.PostmarkWebhook;
import dev.tidings.delivery.webhook.sendgrid.SendGridKeys;
import dev.tidings.delivery.webhook.sendgrid.SendGridWebhook;
import dev.tidings.delivery.webhook.ses.SesWebhook;
import dev.tidings.delivery.webhook.ses.SnsFixtures;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The delivery routes through a real server and a real client, with a recording sink behind them. */
class DeliveryWebhookRoutesTest {
  private static final SimpleMeterRegistry METRICS = new SimpleMeterRegistry();
  private static final String API_KEY = "test-key-0123456789abcdef";
  private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
  private static final long MAX_BODY = 64 * 1024;
  private static final RecordingReceiptSink sink = new RecordingReceiptSink();
  private static final List<URI> confirmed = new ArrayList<>();
  private static final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static HttpServer server;
  private static HttpServer unconfigured;

  @BeforeAll
  static void start() {
    var clock = Fixtures.clockAt(NOW);
    var freshness = new Freshness(clock, Duration.ofMinutes(5));
    var webhooks = new DeliveryWebhooks(
        Optional.of(new SendGridWebhook(
            SendGridKeys.publicKey(SendGridKeys.VECTOR_B + "public-key.b64.txt"), freshness)),
        Optional.of(new SesWebhook(
            Set.of(SnsFixtures.TOPIC),
            SnsFixtures.testKeys(),
            confirmed::add,
            new Freshness(clock, Duration.ofHours(1)))),
        Optional.of(new MailgunWebhook(
            new Secret(MailgunRequests.KEY), freshness, new InMemoryReplayGuard())),
        Optional.of(new PostmarkWebhook(
            new PostmarkCredentials("postmark", new Secret("correct-horse-battery")), clock)));
    server = start(webhooks);
    unconfigured = start(new DeliveryWebhooks(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
  }

  private static HttpServer start(DeliveryWebhooks webhooks) {
    return HttpServer.start(
        new HttpServer.Options(0, new Secret(API_KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new DeliveryWebhookRoutes(
            webhooks, () -> sink, MAX_BODY, Fixtures.clockAt(NOW), METRICS)));
  }

  @AfterAll
  static void stop() {
    server.close();
    unconfigured.close();
  }

  @BeforeEach
  void reset() {
    sink.clear();
    sink.queueDown(false);
  }

  // SendGrid

  private static byte[] sendgridBody() {
    var event = Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-delivered.json").get(0), "", "m-sg");
    return Json.MAPPER.writeValueAsBytes(Json.MAPPER.createArrayNode().add(event));
  }

  private static HttpResponse<String> sendgrid(byte[] body, String signature, String timestamp)
      throws Exception {
    return send(
        server,
        "/webhooks/sendgrid",
        body,
        "application/json",
        List.of(
            SendGridWebhook.SIGNATURE_HEADER,
            signature,
            SendGridWebhook.TIMESTAMP_HEADER,
            timestamp));
  }

  @Test
  void sendgrid_signed_events_are_queued_then_answered_200() throws Exception {
    byte[] body = sendgridBody();
    String timestamp = Long.toString(NOW.getEpochSecond());
    var response = sendgrid(body, SendGridKeys.sign(timestamp, body), timestamp);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json(response).path("receipts").asInt()).isEqualTo(1);
    assertThat(sink.receipts()).singleElement().satisfies(receipt -> {
      assertThat(receipt.messageId()).isEqualTo("m-sg");
      assertThat(receipt.status()).isEqualTo(DeliveryStatus.DELIVERED);
    });
  }

  @Test
  void sendgrid_forged_or_stale_requests_are_refused_and_nothing_is_queued() throws Exception {
    byte[] body = sendgridBody();
    String timestamp = Long.toString(NOW.getEpochSecond());
    String signature = SendGridKeys.sign(timestamp, body);
    byte[] changed = body.clone();
    changed[10] ^= 1;
    assertThat(sendgrid(changed, signature, timestamp).statusCode()).isEqualTo(401);
    String stale = Long.toString(NOW.minusSeconds(301).getEpochSecond());
    var staleAnswer = sendgrid(body, SendGridKeys.sign(stale, body), stale);
    assertThat(staleAnswer.statusCode()).isEqualTo(403);
    assertThat(json(staleAnswer).path("detail").asString()).contains("away from now");
    var unsigned = send(server, "/webhooks/sendgrid", body, "application/json", List.of());
    assertThat(unsigned.statusCode()).isEqualTo(401);
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void a_signed_but_malformed_body_is_422_saying_what_is_wrong() throws Exception {
    byte[] body = "[{\"event\":\"open\"}]".getBytes(StandardCharsets.UTF_8);
    String timestamp = Long.toString(NOW.getEpochSecond());
    var response = sendgrid(body, SendGridKeys.sign(timestamp, body), timestamp);
    // the same answer as any other input that breaks a rule: only the signature has its own
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(json(response).path("detail").asString()).contains("event 0").contains("timestamp");
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void when_the_queue_is_down_the_answer_is_503_with_retry_after() throws Exception {
    sink.queueDown(true);
    byte[] body = sendgridBody();
    String timestamp = Long.toString(NOW.getEpochSecond());
    var response = sendgrid(body, SendGridKeys.sign(timestamp, body), timestamp);
    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).isPresent();
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void a_body_over_the_limit_is_413() throws Exception {
    byte[] body = new byte[(int) MAX_BODY + 1];
    Arrays.fill(body, (byte) ' ');
    // with "Expect: 100-continue" the refusal comes before the body is sent; without it the client
    // may still be writing when the server answers and closes, and sees a broken pipe instead
    var response = send(server, "/webhooks/sendgrid", body, "application/json", List.of(), true);
    assertThat(response.statusCode()).isEqualTo(413);
  }

  // SES

  @Test
  void ses_notifications_are_queued_and_foreign_topics_refused() throws Exception {
    byte[] good = SnsFixtures.notification(
        SnsFixtures.sesEvent("ses-event-Bounce.json", "m-ses"), SnsFixtures.TOPIC, NOW);
    var response = send(server, "/webhooks/ses", good, "text/plain; charset=UTF-8", List.of());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(sink.receipts()).singleElement().satisfies(receipt -> {
      assertThat(receipt.status()).isEqualTo(DeliveryStatus.BOUNCED);
      assertThat(receipt.source()).isEqualTo(ReceiptSource.SES);
    });
    sink.clear();
    byte[] foreign = SnsFixtures.notification(
        SnsFixtures.sesEvent("ses-event-Bounce.json", "m-ses"),
        "arn:aws:sns:eu-west-1:999999999999:attacker",
        NOW);
    assertThat(send(server, "/webhooks/ses", foreign, "text/plain", List.of()).statusCode())
        .isEqualTo(403);
    assertThat(sink.isEmpty()).isTrue();
    assertThat(confirmed).isEmpty();
  }

  @Test
  void ses_answers_503_with_retry_after_when_its_signing_certificate_cannot_be_fetched()
      throws Exception {
    var clock = Fixtures.clockAt(NOW);
    var certificateHostDown = new SesWebhook(
        Set.of(SnsFixtures.TOPIC),
        url -> {
          throw new VerificationUnavailable(
              "the SNS signing certificate " + url + " did not answer");
        },
        confirmed::add,
        new Freshness(clock, Duration.ofHours(1)));
    try (var sesOnly = start(new DeliveryWebhooks(
        Optional.empty(), Optional.of(certificateHostDown), Optional.empty(), Optional.empty()))) {
      byte[] body = SnsFixtures.notification(
          SnsFixtures.sesEvent("ses-event-Bounce.json", "m-ses"), SnsFixtures.TOPIC, NOW);

      var response = send(sesOnly, "/webhooks/ses", body, "text/plain; charset=UTF-8", List.of());

      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.headers().firstValue("Retry-After")).isPresent();
      assertThat(json(response).path("detail").asString()).contains("did not answer");
      assertThat(sink.isEmpty()).isTrue();
    }
  }

  // Mailgun

  @Test
  void mailgun_events_are_queued_once_and_a_replay_is_403() throws Exception {
    byte[] body = MailgunRequests.signed(
        MailgunRequests.event("docs-event-complained.json", "m-mg"), NOW.getEpochSecond(), "tok-1");
    assertThat(send(server, "/webhooks/mailgun", body, "application/json", List.of())
            .statusCode())
        .isEqualTo(200);
    assertThat(sink.receipts())
        .singleElement()
        .satisfies(receipt -> assertThat(receipt.status()).isEqualTo(DeliveryStatus.COMPLAINED));
    sink.clear();
    assertThat(send(server, "/webhooks/mailgun", body, "application/json", List.of())
            .statusCode())
        .isEqualTo(403);
    assertThat(sink.isEmpty()).isTrue();
  }

  // Postmark

  private static double requests(String provider, String result) {
    var counter = METRICS
        .find(DeliveryWebhookRoutes.REQUESTS)
        .tags("provider", provider, "result", result)
        .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void postmark_needs_its_basic_auth() throws Exception {
    byte[] body = Json.MAPPER.writeValueAsBytes(Fixtures.withMessageId(
        Fixtures.json("postmark/anymail-tests/Open-open-event.json"), "Metadata", "m-pm"));
    String good = "Basic "
        + Base64.getEncoder()
            .encodeToString("postmark:correct-horse-battery".getBytes(StandardCharsets.UTF_8));
    String bad = "Basic "
        + Base64.getEncoder().encodeToString("postmark:guess".getBytes(StandardCharsets.UTF_8));
    assertThat(send(
                server,
                "/webhooks/postmark",
                body,
                "application/json",
                List.of("Authorization", bad))
            .statusCode())
        .isEqualTo(401);
    assertThat(sink.isEmpty()).isTrue();
    double accepted = requests("postmark", "accepted");
    var response = send(
        server, "/webhooks/postmark", body, "application/json", List.of("Authorization", good));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(requests("postmark", "accepted")).isEqualTo(accepted + 1);
    assertThat(requests("postmark", "unauthenticated")).isPositive();
    assertThat(sink.receipts())
        .singleElement()
        .satisfies(receipt -> assertThat(receipt.status()).isEqualTo(DeliveryStatus.OPENED));
  }

  @Test
  void a_provider_without_settings_answers_404_naming_the_setting() throws Exception {
    for (String provider : List.of("sendgrid", "ses", "mailgun", "postmark")) {
      var response = send(
          unconfigured, "/webhooks/" + provider, sendgridBody(), "application/json", List.of());
      assertThat(response.statusCode()).as(provider).isEqualTo(404);
      assertThat(json(response).path("detail").asString()).contains("TIDINGS_");
      assertThat(requests(provider, "not_configured")).as(provider).isPositive();
    }
    assertThat(sink.isEmpty()).isTrue();
  }

  // generic API

  @Test
  void delivery_events_need_the_api_key_and_are_queued_whole() throws Exception {
    byte[] body = """
        [{"messageId":"m-1","status":"delivered","timestamp":"2026-05-01T10:00:00Z"},
         {"messageId":"m-2","status":"clicked","timestamp":1777629600}]""".getBytes(StandardCharsets.UTF_8);
    assertThat(send(server, "/api/v1/delivery-events", body, "application/json", List.of())
            .statusCode())
        .isEqualTo(401);
    var response = send(
        server,
        "/api/v1/delivery-events",
        body,
        "application/json",
        List.of("Authorization", "Bearer " + API_KEY));
    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(sink.receipts())
        .extracting(r -> r.status())
        .containsExactly(DeliveryStatus.DELIVERED, DeliveryStatus.CLICKED);
  }

  @Test
  void one_bad_delivery_event_refuses_the_whole_batch_with_422() throws Exception {
    byte[] body = """
        [{"messageId":"m-1","status":"delivered","timestamp":"2026-05-01T10:00:00Z"},
         {"messageId":"m-2","status":"read","timestamp":1777629600}]""".getBytes(StandardCharsets.UTF_8);
    var response = send(
        server,
        "/api/v1/delivery-events",
        body,
        "application/json",
        List.of("Authorization", "Bearer " + API_KEY));
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(json(response).path("detail").asString()).contains("[1].status: 'read'");
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void delivery_events_the_store_cannot_hold_are_refused_with_422_naming_the_field()
      throws Exception {
    byte[] body = """
        [{"messageId":"m-1","status":"delivered","timestamp":"+300000-01-01T00:00:00Z"},
         {"messageId":"m-3","status":"delivered","timestamp":99999999999999999},
         {"messageId":"m-4","status":"delivered","timestamp":"1999-12-31T23:59:59Z"},
         {"messageId":"m-6","status":"delivered","timestamp":"2026-05-01T10:00:00Z",
          "reason":"%s"}]""".formatted("x".repeat(5_000)).getBytes(StandardCharsets.UTF_8);
    var response = send(
        server,
        "/api/v1/delivery-events",
        body,
        "application/json",
        List.of("Authorization", "Bearer " + API_KEY));
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(json(response).path("detail").asString())
        .contains("[0].timestamp")
        .contains("[1].timestamp")
        .contains("[2].timestamp")
        .contains("[3].reason: longer than");
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void a_nul_in_a_delivery_event_is_refused_naming_its_path_before_anything_is_queued()
      throws Exception {
    byte[] body = """
        [{"messageId":"m-1","status":"delivered","timestamp":"2026-05-01T10:00:00Z"},
         {"messageId":"m-2","status":"bounced","timestamp":"2026-05-01T10:00:00Z",
          "reason":"550 no\\u0000 such user"}]""".getBytes(StandardCharsets.UTF_8);
    var response = send(
        server,
        "/api/v1/delivery-events",
        body,
        "application/json",
        List.of("Authorization", "Bearer " + API_KEY));
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(json(response).path("detail").asString()).contains("[1].reason");
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void a_delivery_event_dated_more_than_a_day_ahead_of_the_nodes_clock_is_refused_naming_it()
      throws Exception {
    String ahead = NOW.plus(Duration.ofDays(2)).toString();
    byte[] body = ("[{\"messageId\":\"m-1\",\"status\":\"delivered\",\"timestamp\":\"" + ahead
            + "\"}]")
        .getBytes(StandardCharsets.UTF_8);
    var response = send(
        server,
        "/api/v1/delivery-events",
        body,
        "application/json",
        List.of("Authorization", "Bearer " + API_KEY));
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(json(response).path("detail").asString()).contains("[0].timestamp");
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void
      a_signed_sendgrid_event_the_store_cannot_hold_is_kept_as_refused_and_the_rest_queued_cleaned()
          throws Exception {
    var good = Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-delivered.json").get(0), "", "m-sg");
    var farFuture = Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-delivered.json").get(0), "", "m-future");
    farFuture.put("timestamp", 99999999999999999L);
    var nul = Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-delivered.json").get(0), "", "m-nul");
    nul.put("response", "250 ok\u0000");
    byte[] body = Json.MAPPER.writeValueAsBytes(
        Json.MAPPER.createArrayNode().add(good).add(farFuture).add(nul));
    String timestamp = Long.toString(NOW.getEpochSecond());
    var response = sendgrid(body, SendGridKeys.sign(timestamp, body), timestamp);
    assertThat(response.statusCode()).isEqualTo(200);
    // a NUL in free text is cleaned out, not a reason to set the event aside
    assertThat(sink.receipts()).extracting(r -> r.messageId()).containsExactly("m-sg", "m-nul");
    assertThat(sink.receipts().get(1).reason()).hasValue("250 ok");
    assertThat(sink.unknown())
        .extracting(RecordingReceiptSink.Unknown::eventType)
        .containsExactly("refused:timestamp");
    assertThat(sink.unknown())
        .allSatisfy(event -> assertThat(event.rawEvent()).doesNotContain("\u0000"));
  }

  private static HttpResponse<String> send(
      HttpServer target, String path, byte[] body, String contentType, List<String> headers)
      throws Exception {
    return send(target, path, body, contentType, headers, false);
  }

  private static HttpResponse<String> send(
      HttpServer target,
      String path,
      byte[] body,
      String contentType,
      List<String> headers,
      boolean expectContinue)
      throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://localhost:" + target.port() + path))
        .header("Content-Type", contentType)
        .expectContinue(expectContinue)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.size(); i += 2) request.header(headers.get(i), headers.get(i + 1));
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response) {
    return Json.MAPPER.readTree(response.body());
  }
}

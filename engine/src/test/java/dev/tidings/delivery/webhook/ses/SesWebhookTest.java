package dev.tidings.delivery.webhook.ses;

import static dev.tidings.delivery.webhook.ses.SnsFixtures.SNS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class SesWebhookTest {
  private static final Duration WINDOW = Duration.ofHours(1);
  private final List<URI> confirmed = new ArrayList<>();

  private SesWebhook realVector(SnsFixtures.Vector vector, String topic) {
    var message = Fixtures.json(SNS + vector.messageFile());
    // the certificates have expired since: "now" is the message's own time
    InstantSource now = Fixtures.clockAt(Instant.parse(message.path("Timestamp").asString()));
    return new SesWebhook(
        Set.of(topic),
        FileSigningKeys.read(SnsFixtures.certificateFile(vector.certFile()), now),
        confirmed::add,
        new Freshness(now, WINDOW));
  }

  private static String topicOf(SnsFixtures.Vector vector) {
    return Fixtures.json(SNS + vector.messageFile()).path("TopicArn").asString();
  }

  @Test
  void the_string_to_sign_is_snss_canonical_form_for_every_real_message() {
    for (var vector : SnsFixtures.vectors()) {
      var message = SnsMessage.of(Fixtures.json(SNS + vector.messageFile()));
      assertThat(message.stringToSign())
          .as(vector.messageFile())
          .isEqualTo(
              new String(Fixtures.bytes(SNS + vector.stringToSignFile()), StandardCharsets.UTF_8));
    }
  }

  @Test
  void every_real_aws_signed_message_verifies_under_its_certificate_from_a_file() {
    for (var vector : SnsFixtures.vectors()) {
      Mapped mapped =
          realVector(vector, topicOf(vector)).receive(Fixtures.bytes(SNS + vector.messageFile()));
      assertThat(mapped.receipts()).as(vector.messageFile()).isEmpty();
    }
    // the one real SubscriptionConfirmation was confirmed at its SubscribeURL, on an SNS host
    assertThat(confirmed).hasSize(1);
    assertThat(confirmed.getFirst().getHost()).isEqualTo("sns.us-west-2.amazonaws.com");
    assertThat(confirmed.getFirst().getQuery()).contains("Action=ConfirmSubscription");
  }

  @Test
  void a_real_notification_that_is_no_ses_event_is_kept_as_unknown() {
    var vector = SnsFixtures.vectors().stream()
        .filter(v -> v.messageFile().endsWith("2022-notification-v2.json"))
        .findFirst()
        .orElseThrow();
    Mapped mapped =
        realVector(vector, topicOf(vector)).receive(Fixtures.bytes(SNS + vector.messageFile()));
    assertThat(mapped.unmapped()).singleElement().satisfies(unknown -> {
      assertThat(unknown.eventType()).isEqualTo("not-an-ses-event");
      assertThat(unknown.rawEvent()).isEqualTo("Hello world");
    });
  }

  @Test
  void one_changed_character_breaks_every_real_signature() {
    for (var vector : SnsFixtures.vectors()) {
      ObjectNode message =
          (ObjectNode) Fixtures.json(SNS + vector.messageFile()).deepCopy();
      message.put("Message", message.path("Message").asString() + " ");
      byte[] body = Json.MAPPER.writeValueAsBytes(message);
      assertRefused(
          () -> realVector(vector, topicOf(vector)).receive(body), ErrorKind.UNAUTHENTICATED);
    }
    assertThat(confirmed).isEmpty();
  }

  @Test
  void a_topic_that_is_not_configured_is_forbidden_even_when_signed() {
    var vector = SnsFixtures.vectors().getFirst();
    assertRefused(
        () -> realVector(vector, "arn:aws:sns:us-east-1:111111111111:someone-elses")
            .receive(Fixtures.bytes(SNS + vector.messageFile())),
        ErrorKind.FORBIDDEN);
  }

  @Test
  void a_subscription_confirmation_from_a_foreign_topic_is_never_visited() {
    var vector = SnsFixtures.vectors().stream()
        .filter(v -> v.messageFile().contains("subscription-confirmation"))
        .findFirst()
        .orElseThrow();
    assertRefused(
        () -> realVector(vector, "arn:aws:sns:us-west-2:131990247566:not-this-one")
            .receive(Fixtures.bytes(SNS + vector.messageFile())),
        ErrorKind.FORBIDDEN);
    assertThat(confirmed).isEmpty();
  }

  @Test
  void certificate_urls_off_the_allow_list_are_refused_before_any_fetch() {
    var fetched = new ArrayList<URI>();
    Instant now = Instant.parse("2026-05-01T10:00:00Z");
    var webhook = new SesWebhook(
        Set.of(SnsFixtures.TOPIC),
        url -> {
          fetched.add(url);
          return SnsFixtures.testKeys().keysFor(url);
        },
        confirmed::add,
        new Freshness(Fixtures.clockAt(now), WINDOW));
    for (String url : List.of(
        "http://sns.eu-west-1.amazonaws.com/cert.pem",
        "https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem",
        "https://evil.example/sns.eu-west-1.amazonaws.com/cert.pem",
        "https://sns.eu-west-1.amazonaws.com/cert.txt",
        "https://sns.eu-west-1.amazonaws.com:8443/cert.pem",
        "https://user@sns.eu-west-1.amazonaws.com/cert.pem",
        "https://s3.amazonaws.com/cert.pem")) {
      ObjectNode message = (ObjectNode) Json.MAPPER.readTree(SnsFixtures.notification(
          SnsFixtures.sesEvent("ses-event-Delivery.json", "m-1"), SnsFixtures.TOPIC, now));
      message.put("SigningCertURL", url);
      byte[] body = SnsFixtures.sign(message);
      assertRefused(() -> webhook.receive(body), ErrorKind.UNAUTHENTICATED);
    }
    assertThat(fetched).isEmpty();
    assertThat(SnsHosts.certificateUrl("https://sns.cn-north-1.amazonaws.com.cn/x.pem")
            .getHost())
        .isEqualTo("sns.cn-north-1.amazonaws.com.cn");
  }

  @Test
  void an_sns_message_older_than_the_retry_window_is_forbidden() {
    Instant sent = Instant.parse("2026-05-01T10:00:00Z");
    byte[] body = SnsFixtures.notification(
        SnsFixtures.sesEvent("ses-event-Delivery.json", "m-1"), SnsFixtures.TOPIC, sent);
    var late = new SesWebhook(
        Set.of(SnsFixtures.TOPIC),
        SnsFixtures.testKeys(),
        confirmed::add,
        new Freshness(Fixtures.clockAt(sent.plus(WINDOW).plusSeconds(1)), WINDOW));
    assertRefused(() -> late.receive(body), ErrorKind.FORBIDDEN);
  }

  @Test
  void every_documented_ses_event_maps_to_its_status_with_our_message_id() {
    Instant now = Instant.parse("2026-05-01T10:00:00Z");
    var webhook = new SesWebhook(
        Set.of(SnsFixtures.TOPIC),
        SnsFixtures.testKeys(),
        confirmed::add,
        new Freshness(Fixtures.clockAt(now), WINDOW));
    record Case(String file, DeliveryStatus status) {}
    for (var expected : List.of(
        new Case("ses-event-Send.json", DeliveryStatus.SENT),
        new Case("ses-event-Delivery.json", DeliveryStatus.DELIVERED),
        new Case("ses-event-Bounce.json", DeliveryStatus.BOUNCED),
        new Case("ses-event-Complaint.json", DeliveryStatus.COMPLAINED),
        new Case("ses-event-Reject.json", DeliveryStatus.DROPPED),
        new Case("ses-event-RenderingFailure.json", DeliveryStatus.DROPPED),
        new Case("ses-event-DeliveryDelay.json", DeliveryStatus.DEFERRED),
        new Case("ses-event-Open.json", DeliveryStatus.OPENED),
        new Case("ses-event-Click.json", DeliveryStatus.CLICKED),
        new Case("ses-event-Subscription.json", DeliveryStatus.UNSUBSCRIBED))) {
      String id = "msg-" + expected.file();
      Mapped mapped = webhook.receive(SnsFixtures.notification(
          SnsFixtures.sesEvent(expected.file(), id), SnsFixtures.TOPIC, now));
      assertThat(mapped.receipts()).as(expected.file()).singleElement().satisfies(receipt -> {
        assertThat(receipt.messageId()).isEqualTo(id);
        assertThat(receipt.status()).isEqualTo(expected.status());
      });
    }
  }

  @Test
  void a_transient_bounce_is_deferred_and_opens_carry_agent_and_address() {
    var bounce = SnsFixtures.sesEvent("ses-event-Bounce.json", "m-soft");
    ((ObjectNode) bounce.path("bounce")).put("bounceType", "Transient");
    var mapped = new Mapped.Builder();
    SesEvents.map(bounce, "sns-1", mapped);
    SesEvents.map(SnsFixtures.sesEvent("ses-event-Open.json", "m-open"), "sns-2", mapped);
    var receipts = mapped.build().receipts();
    assertThat(receipts.get(0).status()).isEqualTo(DeliveryStatus.DEFERRED);
    assertThat(receipts.get(0).reason())
        .hasValueSatisfying(r -> assertThat(r).startsWith("Transient/"));
    assertThat(receipts.get(1).userAgent())
        .hasValueSatisfying(ua -> assertThat(ua).contains("iPhone"));
    assertThat(receipts.get(1).sourceAddress()).hasValue("192.0.2.1");
    assertThat(receipts.get(1).at()).isEqualTo(Instant.parse("2017-08-09T22:00:19.652Z"));
    assertThat(receipts.get(1).eventId()).hasValue("sns-2");
  }

  @Test
  void an_ses_event_without_our_message_id_is_unknown_not_an_error() {
    var mapped = new Mapped.Builder();
    SesEvents.map(Fixtures.json("amazon-ses-sns/ses-events/ses-event-Delivery.json"), "x", mapped);
    assertThat(mapped.build().unmapped())
        .singleElement()
        .satisfies(unknown -> assertThat(unknown.eventType()).isEqualTo("no-message-id:Delivery"));
  }

  @Test
  void a_body_that_is_no_sns_message_is_malformed() {
    var webhook = new SesWebhook(
        Set.of(SnsFixtures.TOPIC),
        SnsFixtures.testKeys(),
        confirmed::add,
        new Freshness(InstantSource.system(), WINDOW));
    assertRefused(
        () -> webhook.receive("{\"Type\":\"Notification\"}".getBytes(StandardCharsets.UTF_8)),
        ErrorKind.INVALID);
    assertRefused(
        () -> webhook.receive("not json".getBytes(StandardCharsets.UTF_8)), ErrorKind.INVALID);
  }

  private static void assertRefused(ThrowingCallable call, ErrorKind kind) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            WebhookRefused.class, refused -> assertThat(refused.kind()).isEqualTo(kind));
  }
}

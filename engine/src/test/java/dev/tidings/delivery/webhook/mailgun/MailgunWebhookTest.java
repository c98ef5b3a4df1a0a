package dev.tidings.delivery.webhook.mailgun;

import static dev.tidings.delivery.webhook.mailgun.MailgunRequests.KEY;
import static dev.tidings.delivery.webhook.mailgun.MailgunRequests.SWAPPED;
import static dev.tidings.delivery.webhook.mailgun.MailgunRequests.VALID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.InMemoryReplayGuard;
import dev.tidings.delivery.webhook.RecordingReceiptSink;
import dev.tidings.delivery.webhook.WebhookRefused;
import dev.tidings.queue.QueueUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class MailgunWebhookTest {
  private static final Duration MAX_AGE = Duration.ofMinutes(5);
  private static final Instant SIGNED =
      Instant.ofEpochSecond(VALID.path("timestamp").asLong());
  private final RecordingReceiptSink sink = new RecordingReceiptSink();
  private final InMemoryReplayGuard replays = new InMemoryReplayGuard();

  private MailgunWebhook webhook(String key, Instant now) {
    return new MailgunWebhook(
        new Secret(key), new Freshness(Fixtures.clockAt(now), MAX_AGE), replays);
  }

  @Test
  void mailgun_phps_vector_verifies_and_the_event_is_handed_on() {
    var body =
        MailgunRequests.realSignature(MailgunRequests.event("docs-event-delivered.json", "m-1"));
    webhook(KEY, SIGNED.plusSeconds(10)).receive(body, sink);
    assertThat(sink.receipts()).singleElement().satisfies(receipt -> {
      assertThat(receipt.messageId()).isEqualTo("m-1");
      assertThat(receipt.status()).isEqualTo(DeliveryStatus.DELIVERED);
    });
  }

  @Test
  void the_same_token_twice_is_a_replay_and_is_forbidden() {
    var body =
        MailgunRequests.realSignature(MailgunRequests.event("docs-event-delivered.json", "m-1"));
    webhook(KEY, SIGNED).receive(body, sink);
    sink.clear();
    assertRefused(() -> webhook(KEY, SIGNED).receive(body, sink), ErrorKind.FORBIDDEN);
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void a_swapped_token_a_wrong_key_or_a_stale_timestamp_hands_nothing_on() {
    var event = MailgunRequests.event("docs-event-delivered.json", "m-1");
    var swapped = MailgunRequests.envelope(
        event,
        SWAPPED.path("timestamp").asString(),
        SWAPPED.path("token").asString(),
        SWAPPED.path("signature").asString());
    assertRefused(() -> webhook(KEY, SIGNED).receive(swapped, sink), ErrorKind.UNAUTHENTICATED);
    var real = MailgunRequests.realSignature(event);
    assertRefused(
        () -> webhook("key-not-the-signing-key", SIGNED).receive(real, sink),
        ErrorKind.UNAUTHENTICATED);
    assertRefused(
        () -> webhook(KEY, SIGNED.plus(MAX_AGE).plusSeconds(1)).receive(real, sink),
        ErrorKind.FORBIDDEN);
    var unsigned = MailgunRequests.envelope(event, "1403645220", "token", "");
    assertRefused(() -> webhook(KEY, SIGNED).receive(unsigned, sink), ErrorKind.UNAUTHENTICATED);
    assertThat(sink.isEmpty()).isTrue();
  }

  @Test
  void a_token_refused_by_the_queue_is_released_so_mailguns_retry_is_taken() {
    var body =
        MailgunRequests.realSignature(MailgunRequests.event("docs-event-opened.json", "m-2"));
    sink.queueDown(true);
    assertThatThrownBy(() -> webhook(KEY, SIGNED).receive(body, sink))
        .isInstanceOf(QueueUnavailableException.class);
    sink.queueDown(false);
    webhook(KEY, SIGNED).receive(body, sink);
    assertThat(sink.receipts()).hasSize(1);
  }

  @Test
  void every_documented_event_maps_to_its_status() {
    record Case(String file, DeliveryStatus status) {}
    long now = 1_800_000_000L;
    int i = 0;
    for (var expected : List.of(
        new Case("docs-event-accepted.json", DeliveryStatus.SENT),
        new Case("docs-event-delivered.json", DeliveryStatus.DELIVERED),
        new Case("docs-event-failed-permanent.json", DeliveryStatus.BOUNCED),
        new Case("docs-event-failed-permanent-delayed-bounce.json", DeliveryStatus.BOUNCED),
        new Case("docs-event-failed-temporary.json", DeliveryStatus.DEFERRED),
        new Case("docs-event-rejected.json", DeliveryStatus.DROPPED),
        new Case("docs-event-opened.json", DeliveryStatus.OPENED),
        new Case("docs-event-clicked.json", DeliveryStatus.CLICKED),
        new Case("docs-event-unsubscribed.json", DeliveryStatus.UNSUBSCRIBED),
        new Case("docs-event-complained.json", DeliveryStatus.COMPLAINED))) {
      sink.clear();
      var body = MailgunRequests.signed(
          MailgunRequests.event(expected.file(), "m-" + i), now, "token-" + i++);
      webhook(KEY, Instant.ofEpochSecond(now)).receive(body, sink);
      assertThat(sink.receipts())
          .as(expected.file())
          .singleElement()
          .satisfies(receipt -> assertThat(receipt.status()).isEqualTo(expected.status()));
    }
    sink.clear();
    var stored = MailgunRequests.signed(
        MailgunRequests.event("docs-event-stored.json", "m-s"), now, "token-stored");
    webhook(KEY, Instant.ofEpochSecond(now)).receive(stored, sink);
    assertThat(sink.receipts()).isEmpty();
    assertThat(sink.unknown())
        .singleElement()
        .satisfies(u -> assertThat(u.eventType()).isEqualTo("stored"));
  }

  @Test
  void a_bot_open_says_machine_and_keeps_time_to_the_microsecond() {
    var mapped = MailgunEvents.map(MailgunRequests.event("docs-opened-bot-apple-mpp.json", "m-b"));
    assertThat(mapped.receipts()).singleElement().satisfies(receipt -> {
      assertThat(receipt.providerSaysMachine()).isTrue();
      assertThat(receipt.status()).isEqualTo(DeliveryStatus.OPENED);
    });
    var human = MailgunEvents.map(MailgunRequests.event("docs-event-opened.json", "m-h"));
    assertThat(human.receipts().getFirst().providerSaysMachine()).isFalse();
    assertThat(human.receipts().getFirst().at())
        .isEqualTo(Instant.ofEpochSecond(1377047343L, 42_277_000L));
  }

  @Test
  void a_real_event_without_our_variable_is_unknown_and_a_missing_event_is_malformed() {
    var real = Fixtures.json("mailgun/events/anymail-delivered-real-sanitized-envelope.json");
    assertThat(MailgunEvents.map(real.path("event-data")).unmapped())
        .singleElement()
        .satisfies(u -> assertThat(u.eventType()).isEqualTo("no-message-id:delivered"));
    var body =
        MailgunRequests.signed(Json.MAPPER.createObjectNode(), SIGNED.getEpochSecond(), "t-x");
    assertRefused(() -> webhook(KEY, SIGNED).receive(body, sink), ErrorKind.INVALID);
    // a malformed request does not use its token up
    assertThat(replays.claim(MailgunWebhook.PROVIDER, "t-x", SIGNED)).isTrue();
  }

  @Test
  void a_timestamp_beyond_any_calendar_is_refused_not_a_crash() {
    var body = MailgunRequests.envelope(
        MailgunRequests.event("docs-event-delivered.json", "m"),
        "9223372036854775807",
        "t-huge",
        MailgunWebhook.hmacHex(KEY, "9223372036854775807t-huge"));
    assertRefused(() -> webhook(KEY, SIGNED).receive(body, sink), ErrorKind.UNAUTHENTICATED);
    assertThat(sink.isEmpty()).isTrue();
  }

  private static void assertRefused(ThrowingCallable call, ErrorKind kind) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            WebhookRefused.class, refused -> assertThat(refused.kind()).isEqualTo(kind));
  }
}

package dev.tidings.delivery.webhook.sendgrid;

import static dev.tidings.delivery.webhook.sendgrid.SendGridKeys.VECTOR_A;
import static dev.tidings.delivery.webhook.sendgrid.SendGridKeys.VECTOR_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;

class SendGridWebhookTest {
  private static final Duration MAX_AGE = Duration.ofMinutes(5);

  private static SendGridWebhook webhook(String vector, Instant now) {
    return new SendGridWebhook(
        SendGridKeys.publicKey(vector + "public-key.b64.txt"),
        new Freshness(Fixtures.clockAt(now), MAX_AGE));
  }

  private static String timestamp(String vector) {
    return Fixtures.text(vector + "x-twilio-email-event-webhook-timestamp.txt");
  }

  private static String signature(String vector) {
    return Fixtures.text(vector + "x-twilio-email-event-webhook-signature.b64.txt");
  }

  private static Instant signedAt(String vector) {
    return Instant.ofEpochSecond(Long.parseLong(timestamp(vector)));
  }

  @Test
  void sendgrids_own_vectors_verify_and_events_without_our_id_are_kept_as_unknown() {
    for (String vector : new String[] {VECTOR_A, VECTOR_B}) {
      Mapped mapped = webhook(vector, signedAt(vector).plusSeconds(30))
          .receive(
              Optional.of(signature(vector)),
              Optional.of(timestamp(vector)),
              Fixtures.bytes(vector + "payload.json"));
      assertThat(mapped.receipts()).isEmpty();
      assertThat(mapped.unmapped()).hasSize(1);
    }
    var dropped = webhook(VECTOR_A, signedAt(VECTOR_A))
        .receive(
            Optional.of(signature(VECTOR_A)),
            Optional.of(timestamp(VECTOR_A)),
            Fixtures.bytes(VECTOR_A + "payload.json"));
    assertThat(dropped.unmapped().getFirst().eventType()).isEqualTo("no-message-id:dropped");
    assertThat(dropped.unmapped().getFirst().rawEvent()).contains("Bounced Address");
  }

  @Test
  void another_key_does_not_verify() {
    var webhook = new SendGridWebhook(
        SendGridKeys.publicKey(VECTOR_A + "negative/other-public-key.b64.txt"),
        new Freshness(Fixtures.clockAt(signedAt(VECTOR_A)), MAX_AGE));
    assertRefused(
        () -> webhook.receive(
            Optional.of(signature(VECTOR_A)),
            Optional.of(timestamp(VECTOR_A)),
            Fixtures.bytes(VECTOR_A + "payload.json")),
        ErrorKind.UNAUTHENTICATED);
  }

  @Test
  void a_changed_body_byte_a_changed_signature_or_timestamp_does_not_verify() {
    var webhook = webhook(VECTOR_A, signedAt(VECTOR_A));
    byte[] body = Fixtures.bytes(VECTOR_A + "payload.json");
    byte[] changed = body.clone();
    changed[changed.length - 3] ^= 1;
    assertRefused(
        () -> webhook.receive(
            Optional.of(signature(VECTOR_A)), Optional.of(timestamp(VECTOR_A)), changed),
        ErrorKind.UNAUTHENTICATED);
    // SendGrid's bodies end in CRLF: a receiver that trims them must fail too
    byte[] trimmed =
        new String(body, StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
    assertRefused(
        () -> webhook.receive(
            Optional.of(signature(VECTOR_A)), Optional.of(timestamp(VECTOR_A)), trimmed),
        ErrorKind.UNAUTHENTICATED);
    assertRefused(
        () -> webhook.receive(
            Optional.of(Fixtures.text(VECTOR_A + "negative/bad-signature.b64.txt")),
            Optional.of(timestamp(VECTOR_A)),
            body),
        ErrorKind.UNAUTHENTICATED);
    String otherTime = Long.toString(Long.parseLong(timestamp(VECTOR_A)) + 1);
    assertRefused(
        () -> webhook.receive(Optional.of(signature(VECTOR_A)), Optional.of(otherTime), body),
        ErrorKind.UNAUTHENTICATED);
  }

  @Test
  void missing_headers_are_unauthenticated() {
    var webhook = webhook(VECTOR_A, signedAt(VECTOR_A));
    byte[] body = Fixtures.bytes(VECTOR_A + "payload.json");
    assertRefused(
        () -> webhook.receive(Optional.empty(), Optional.of(timestamp(VECTOR_A)), body),
        ErrorKind.UNAUTHENTICATED);
    assertRefused(
        () -> webhook.receive(Optional.of(signature(VECTOR_A)), Optional.empty(), body),
        ErrorKind.UNAUTHENTICATED);
  }

  @Test
  void a_stale_or_future_timestamp_is_forbidden_even_with_a_good_signature() {
    byte[] body = Fixtures.bytes(VECTOR_A + "payload.json");
    for (Instant now : new Instant[] {
      signedAt(VECTOR_A).plus(MAX_AGE).plusSeconds(1),
      signedAt(VECTOR_A).minus(MAX_AGE).minusSeconds(1)
    }) {
      assertRefused(
          () -> webhook(VECTOR_A, now)
              .receive(Optional.of(signature(VECTOR_A)), Optional.of(timestamp(VECTOR_A)), body),
          ErrorKind.FORBIDDEN);
    }
  }

  @Test
  void every_documented_event_maps_to_its_status_with_our_message_id() {
    var all = (ArrayNode) Fixtures.json("sendgrid/events/docs-all-event-types.json");
    var events = Json.MAPPER.createArrayNode();
    for (int i = 0; i < all.size(); i++)
      events.add(Fixtures.withMessageId(all.get(i), "", "msg-" + i));
    events.add(Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-bounce-type-blocked.json").get(0), "", "msg-blocked"));
    var open = Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-open.json").get(0), "", "msg-machine");
    open.put("sg_machine_open", true);
    events.add(open);
    byte[] body = Json.MAPPER.writeValueAsBytes(events);
    Instant now = Instant.parse("2026-05-01T10:00:00Z");
    String timestamp = Long.toString(now.getEpochSecond());

    Mapped mapped = webhook(VECTOR_B, now)
        .receive(Optional.of(SendGridKeys.sign(timestamp, body)), Optional.of(timestamp), body);

    var byId = new HashMap<String, Receipt>();
    mapped.receipts().forEach(receipt -> byId.put(receipt.messageId(), receipt));
    for (int i = 0; i < all.size(); i++) {
      String type = all.get(i).path("event").asString();
      Optional<DeliveryStatus> expected = expected(type, all.get(i).path("type").asString(""));
      if (expected.isPresent()) {
        assertThat(byId.get("msg-" + i).status()).as(type).isEqualTo(expected.get());
        assertThat(byId.get("msg-" + i).at())
            .isEqualTo(Instant.ofEpochSecond(all.get(i).path("timestamp").asLong()));
      } else {
        assertThat(byId).doesNotContainKey("msg-" + i);
        assertThat(mapped.unmapped()).anyMatch(unknown -> unknown.eventType().equals(type));
      }
    }
    assertThat(byId.get("msg-blocked").status()).isEqualTo(DeliveryStatus.DEFERRED);
    assertThat(byId.get("msg-blocked").reason()).hasValue("blocked: 500 unknown recipient");
    var machine = byId.get("msg-machine");
    assertThat(machine.status()).isEqualTo(DeliveryStatus.OPENED);
    assertThat(machine.providerSaysMachine()).isTrue();
    assertThat(machine.userAgent()).hasValueSatisfying(ua -> assertThat(ua).contains("MSIE"));
    assertThat(machine.sourceAddress()).hasValue("255.255.255.255");
    assertThat(machine.eventId()).hasValue("FOTFFO0ecsBE-zxFXfs6WA==");
    assertThat(machine.source()).isEqualTo(ReceiptSource.SENDGRID);
  }

  /** The mapping written down independently of the code under test, from SendGrid's event list. */
  private static Optional<DeliveryStatus> expected(String event, String bounceType) {
    return switch (event) {
      case "processed" -> Optional.of(DeliveryStatus.SENT);
      case "delivered" -> Optional.of(DeliveryStatus.DELIVERED);
      case "deferred" -> Optional.of(DeliveryStatus.DEFERRED);
      case "bounce" ->
        Optional.of(
            bounceType.equals("blocked") ? DeliveryStatus.DEFERRED : DeliveryStatus.BOUNCED);
      case "dropped" -> Optional.of(DeliveryStatus.DROPPED);
      case "open" -> Optional.of(DeliveryStatus.OPENED);
      case "click" -> Optional.of(DeliveryStatus.CLICKED);
      case "spamreport" -> Optional.of(DeliveryStatus.COMPLAINED);
      case "unsubscribe", "group_unsubscribe" -> Optional.of(DeliveryStatus.UNSUBSCRIBED);
      default -> Optional.empty();
    };
  }

  @Test
  void millisecond_timestamps_of_marketing_campaigns_are_read_as_milliseconds() {
    var event = Fixtures.withMessageId(
        Fixtures.json("sendgrid/events/docs-marketing-singlesend-open.json").get(0), "", "m");
    Mapped mapped = SendGridEvents.map(Json.MAPPER.createArrayNode().add(event));
    assertThat(mapped.receipts().getFirst().at()).isEqualTo(Instant.ofEpochMilli(1591726752372L));
  }

  @Test
  void a_malformed_body_names_what_is_wrong() {
    assertThatThrownBy(() -> SendGridEvents.map(Json.MAPPER.readTree("\"text\"")))
        .isInstanceOfSatisfying(
            WebhookRefused.class,
            refused -> assertThat(refused.kind()).isEqualTo(ErrorKind.INVALID));
    assertThatThrownBy(() -> SendGridEvents.map(
            Json.MAPPER.readTree("[{\"event\":\"open\",\"timestamp\":1}, 3, {\"timestamp\":1}]")))
        .isInstanceOf(WebhookRefused.class)
        .hasMessageContaining("event 1: not a JSON object")
        .hasMessageContaining("event 2: 'event'");
  }

  private static void assertRefused(ThrowableAssert.ThrowingCallable call, ErrorKind kind) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            WebhookRefused.class, refused -> assertThat(refused.kind()).isEqualTo(kind));
  }
}

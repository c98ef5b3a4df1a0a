package dev.tidings.delivery.webhook.postmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.config.Secret;
import dev.tidings.config.WebhookSettings.PostmarkCredentials;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class PostmarkWebhookTest {
  private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
  private static final PostmarkWebhook WEBHOOK = new PostmarkWebhook(
      new PostmarkCredentials("postmark", new Secret("correct-horse-battery")),
      Fixtures.clockAt(NOW));

  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  static byte[] record(String file, String messageId) {
    return Json.MAPPER.writeValueAsBytes(Fixtures.withMessageId(
        Fixtures.json("postmark/anymail-tests/" + file), "Metadata", messageId));
  }

  private static Mapped receive(String file) {
    return WEBHOOK.receive(
        Optional.of(basic("postmark", "correct-horse-battery")), record(file, "m-" + file));
  }

  @Test
  void every_record_type_maps_to_its_status_with_our_metadata_id() {
    record Case(String file, DeliveryStatus status) {}
    for (var expected : List.of(
        new Case("Delivery-delivered-event.json", DeliveryStatus.DELIVERED),
        new Case("Bounce-bounce-event.json", DeliveryStatus.BOUNCED),
        new Case("Bounce-bounce-unsubscribe-variant.json", DeliveryStatus.UNSUBSCRIBED),
        new Case("SpamComplaint-spam-event.json", DeliveryStatus.COMPLAINED),
        new Case("Open-open-event.json", DeliveryStatus.OPENED),
        new Case("Click-click-event.json", DeliveryStatus.CLICKED),
        new Case("SubscriptionChange-unsubscribe.json", DeliveryStatus.UNSUBSCRIBED),
        new Case("SubscriptionChange-subscription-change-bounce.json", DeliveryStatus.BOUNCED))) {
      assertThat(receive(expected.file()).receipts())
          .as(expected.file())
          .singleElement()
          .satisfies(receipt -> {
            assertThat(receipt.status()).isEqualTo(expected.status());
            assertThat(receipt.messageId()).isEqualTo("m-" + expected.file());
          });
    }
    assertThat(receive("SubscriptionChange-resubscribe.json").unmapped()).hasSize(1);
  }

  @Test
  void times_keep_their_offset_and_clicks_their_agent_and_address() {
    var delivered = receive("Delivery-delivered-event.json").receipts().getFirst();
    assertThat(delivered.at()).isEqualTo(Instant.parse("2014-08-01T17:28:10.2735393Z"));
    var click = receive("Click-click-event.json").receipts().getFirst();
    assertThat(click.sourceAddress()).hasValue("8.8.8.8");
    assertThat(click.userAgent()).hasValueSatisfying(ua -> assertThat(ua).contains("Macintosh"));
    var bounce = receive("Bounce-bounce-event.json").receipts().getFirst();
    assertThat(bounce.eventId()).hasValue("901542550");
    // a real unsubscribe bounce carries no BouncedAt: the time it reached us stands in
    assertThat(receive("Bounce-bounce-unsubscribe-variant.json")
            .receipts()
            .getFirst()
            .at())
        .isEqualTo(NOW);
  }

  @Test
  void soft_bounce_types_are_deferred_not_bounced() {
    for (String type : List.of("SoftBounce", "Transient", "DnsError")) {
      ObjectNode bounce = Fixtures.withMessageId(
          Fixtures.json("postmark/anymail-tests/Bounce-bounce-event.json"), "Metadata", "m");
      bounce.put("Type", type);
      assertThat(PostmarkEvents.map(bounce, NOW).receipts().getFirst().status())
          .as(type)
          .isEqualTo(DeliveryStatus.DEFERRED);
    }
  }

  @Test
  void wrong_or_missing_basic_auth_is_unauthenticated() {
    byte[] body = record("Delivery-delivered-event.json", "m");
    for (Optional<String> authorization : List.of(
        Optional.<String>empty(),
        Optional.of(basic("postmark", "wrong-password-here")),
        Optional.of(basic("someone", "correct-horse-battery")),
        Optional.of(basic("postmark", "correct-horse-battery-")),
        Optional.of("Bearer correct-horse-battery"),
        Optional.of("Basic %%%"))) {
      assertThatThrownBy(() -> WEBHOOK.receive(authorization, body))
          .as(authorization.toString())
          .isInstanceOfSatisfying(
              WebhookRefused.class,
              refused -> assertThat(refused.kind()).isEqualTo(ErrorKind.UNAUTHENTICATED));
    }
  }

  @Test
  void a_record_without_our_id_is_unknown_and_one_without_a_type_is_malformed() {
    var mapped = WEBHOOK.receive(
        Optional.of(basic("postmark", "correct-horse-battery")),
        Fixtures.bytes("postmark/anymail-tests/Open-open-event.json"));
    assertThat(mapped.unmapped())
        .singleElement()
        .satisfies(u -> assertThat(u.eventType()).isEqualTo("no-message-id:Open"));
    assertThatThrownBy(() -> WEBHOOK.receive(
            Optional.of(basic("postmark", "correct-horse-battery")),
            "{\"MessageID\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            WebhookRefused.class,
            refused -> assertThat(refused.kind()).isEqualTo(ErrorKind.INVALID));
  }
}

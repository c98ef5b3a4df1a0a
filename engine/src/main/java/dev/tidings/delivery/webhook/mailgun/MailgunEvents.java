package dev.tidings.delivery.webhook.mailgun;

import static dev.tidings.delivery.webhook.WebhookJson.text;

import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.MessageIds;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Mailgun's {@code event-data} as a receipt. Our message id is the user variable {@value
 * MessageIds#KEY} (sent as {@code X-Mailgun-Variables} / {@code v:tidings_message_id}): Mailgun
 * echoes only a few message headers in events, and ours is not among them.
 */
public final class MailgunEvents {
  /** 9999-12-31T23:59:59Z: anything later is no time a mail event happened. */
  private static final BigDecimal LATEST_SECONDS = BigDecimal.valueOf(253_402_300_799L);

  private MailgunEvents() {}

  public static Mapped map(JsonNode event) {
    if (!event.isObject()) throw WebhookRefused.malformed("event-data is missing or not an object");
    String type = text(event, "event")
        .orElseThrow(() -> WebhookRefused.malformed("event-data.event is missing"));
    JsonNode timestamp = event.path("timestamp");
    if (!timestamp.isNumber()
        || timestamp.decimalValue().signum() < 0
        || timestamp.decimalValue().compareTo(LATEST_SECONDS) > 0)
      throw WebhookRefused.malformed(
          "event-data.timestamp (unix seconds) is missing or out of range");
    var mapped = new Mapped.Builder();
    Optional<DeliveryStatus> status = status(type, event);
    Optional<String> messageId = MessageIds.of(event.path("user-variables").path(MessageIds.KEY));
    if (status.isEmpty())
      return mapped
          .unmapped(ReceiptSource.MAILGUN, type, raw(event), text(event, "id"))
          .build();
    if (messageId.isEmpty())
      return mapped
          .unmapped(ReceiptSource.MAILGUN, "no-message-id:" + type, raw(event), text(event, "id"))
          .build();
    JsonNode client = event.path("client-info");
    return mapped
        .receipt(new Receipt(
            messageId.get(),
            status.get(),
            at(event.path("timestamp").decimalValue()),
            ReceiptSource.MAILGUN,
            reason(event),
            text(client, "user-agent"),
            text(event, "ip"),
            // Mailgun names the bot it recognised (apple, gmail, generic); empty when none
            text(client, "bot").isPresent(),
            text(event, "id"),
            Optional.empty()))
        .build();
  }

  private static Optional<DeliveryStatus> status(String type, JsonNode event) {
    return Optional.ofNullable(
        switch (type) {
          case "accepted" -> DeliveryStatus.SENT;
          case "delivered" -> DeliveryStatus.DELIVERED;
          case "failed" ->
            "permanent".equals(event.path("severity").asString(""))
                ? DeliveryStatus.BOUNCED
                : DeliveryStatus.DEFERRED;
          case "rejected" -> DeliveryStatus.DROPPED;
          case "opened" -> DeliveryStatus.OPENED;
          case "clicked" -> DeliveryStatus.CLICKED;
          case "unsubscribed" -> DeliveryStatus.UNSUBSCRIBED;
          case "complained" -> DeliveryStatus.COMPLAINED;
          default -> null;
        });
  }

  private static Optional<String> reason(JsonNode event) {
    JsonNode delivery = event.path("delivery-status");
    Optional<String> detail = text(delivery, "description").or(() -> text(delivery, "message"));
    Optional<String> reason = text(event, "reason").or(() -> text(event.path("reject"), "reason"));
    if (reason.isPresent() && detail.isPresent())
      return Optional.of(reason.get() + ": " + detail.get());
    return reason.or(() -> detail);
  }

  private static Instant at(BigDecimal seconds) {
    long whole = seconds.longValue();
    long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
    return Instant.ofEpochSecond(whole, nanos);
  }

  private static String raw(JsonNode event) {
    return WebhookJson.raw(event);
  }
}

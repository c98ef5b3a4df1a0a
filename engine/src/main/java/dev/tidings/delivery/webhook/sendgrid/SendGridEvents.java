package dev.tidings.delivery.webhook.sendgrid;

import static dev.tidings.delivery.webhook.WebhookJson.text;

import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.MessageIds;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * SendGrid events as receipts. Our message id comes back as the custom argument {@value
 * MessageIds#KEY}, which SendGrid copies as a top-level key onto every event of the message.
 */
public final class SendGridEvents {
  /** Timestamps above this are milliseconds: Marketing Campaigns events write them so. */
  private static final long LARGEST_SECONDS = 100_000_000_000L;

  private SendGridEvents() {}

  /** Every event of a body (an array, or the lone object some Marketing Campaigns events come as). */
  public static Mapped map(JsonNode body) {
    List<JsonNode> events = new ArrayList<>();
    if (body.isArray()) body.forEach(events::add);
    else if (body.isObject()) events.add(body);
    else throw WebhookRefused.malformed("expected a JSON array of SendGrid events");
    var problems = new ArrayList<String>();
    for (int i = 0; i < events.size(); i++) {
      JsonNode event = events.get(i);
      if (!event.isObject()) problems.add("event " + i + ": not a JSON object");
      else if (text(event, "event").isEmpty())
        problems.add("event " + i + ": 'event' (the event type) is missing");
      // an event we keep as unknown (SendGrid's own test_event has no time) needs no timestamp
      else if (status(text(event, "event").orElseThrow(), event).isPresent()
          && !(event.path("timestamp").isIntegralNumber()
              && event.path("timestamp").canConvertToLong()
              && event.path("timestamp").asLong() >= 0))
        problems.add("event " + i + ": 'timestamp' (unix seconds) is missing or not a number");
    }
    if (!problems.isEmpty()) throw WebhookRefused.malformed(String.join("; ", problems));
    var mapped = new Mapped.Builder();
    for (JsonNode event : events) map(event, mapped);
    return mapped.build();
  }

  private static void map(JsonNode event, Mapped.Builder mapped) {
    String type = text(event, "event").orElseThrow();
    Optional<DeliveryStatus> status = status(type, event);
    Optional<String> messageId = MessageIds.of(event.path(MessageIds.KEY));
    if (status.isEmpty()) {
      mapped.unmapped(
          ReceiptSource.SENDGRID, type, WebhookJson.raw(event), text(event, "sg_event_id"));
    } else if (messageId.isEmpty()) {
      mapped.unmapped(
          ReceiptSource.SENDGRID,
          "no-message-id:" + type,
          WebhookJson.raw(event),
          text(event, "sg_event_id"));
    } else {
      mapped.receipt(new Receipt(
          messageId.get(),
          status.get(),
          at(event.path("timestamp")),
          ReceiptSource.SENDGRID,
          reason(event),
          text(event, "useragent"),
          text(event, "ip"),
          event.path("sg_machine_open").asBoolean(false),
          text(event, "sg_event_id"),
          Optional.empty()));
    }
  }

  private static Optional<DeliveryStatus> status(String type, JsonNode event) {
    return Optional.ofNullable(
        switch (type) {
          case "processed" -> DeliveryStatus.SENT;
          case "delivered" -> DeliveryStatus.DELIVERED;
          case "deferred" -> DeliveryStatus.DEFERRED;
          // a block is SendGrid's soft bounce: the address stays good, so it must not suppress it
          case "bounce" ->
            "blocked".equals(event.path("type").asString(""))
                ? DeliveryStatus.DEFERRED
                : DeliveryStatus.BOUNCED;
          case "dropped" -> DeliveryStatus.DROPPED;
          case "open" -> DeliveryStatus.OPENED;
          case "click" -> DeliveryStatus.CLICKED;
          case "spamreport" -> DeliveryStatus.COMPLAINED;
          case "unsubscribe", "group_unsubscribe" -> DeliveryStatus.UNSUBSCRIBED;
          default -> null;
        });
  }

  private static Optional<String> reason(JsonNode event) {
    Optional<String> reason = text(event, "reason").or(() -> text(event, "response"));
    Optional<String> type = text(event, "type");
    if (type.isPresent() && "bounce".equals(text(event, "event").orElse("")))
      return Optional.of(type.get() + ": " + reason.orElse(""));
    return reason;
  }

  private static Instant at(JsonNode timestamp) {
    long value = timestamp.asLong();
    return value > LARGEST_SECONDS ? Instant.ofEpochMilli(value) : Instant.ofEpochSecond(value);
  }
}

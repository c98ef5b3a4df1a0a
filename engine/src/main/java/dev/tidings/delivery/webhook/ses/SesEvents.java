package dev.tidings.delivery.webhook.ses;

import static dev.tidings.delivery.webhook.WebhookJson.isoInstant;
import static dev.tidings.delivery.webhook.WebhookJson.text;

import dev.tidings.Json;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.MessageIds;
import dev.tidings.delivery.webhook.WebhookJson;
import java.time.Instant;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * An SES event (the SNS notification's Message) as a receipt. Our message id is read from the
 * original headers SES echoes in {@code mail.headers} ({@value MessageIds#HEADER}), else from the
 * message tag {@value MessageIds#KEY} in {@code mail.tags}: headers may be truncated or left out by
 * the configuration set, tags always come back.
 */
public final class SesEvents {
  private SesEvents() {}

  static Mapped map(SnsMessage notification) {
    var mapped = new Mapped.Builder();
    JsonNode event;
    try {
      event = Json.MAPPER.readTree(notification.message());
    } catch (JacksonException | NumberFormatException e) {
      event = null;
    }
    if (event == null || !event.isObject()) {
      return mapped
          .unmapped(
              ReceiptSource.SES,
              "not-an-ses-event",
              notification.message(),
              Optional.of(notification.messageId()))
          .build();
    }
    map(event, notification.messageId(), mapped);
    return mapped.build();
  }

  /** One SES event record; {@code eventId} is the SNS MessageId, which SNS keeps on redelivery. */
  public static void map(JsonNode event, String eventId, Mapped.Builder mapped) {
    // event publishing says eventType; identity feedback notifications say notificationType
    String type =
        text(event, "eventType").or(() -> text(event, "notificationType")).orElse("");
    Optional<Found> found = found(type, event);
    Optional<String> messageId = messageId(event.path("mail"));
    String raw = WebhookJson.raw(event);
    if (found.isEmpty()) {
      mapped.unmapped(
          ReceiptSource.SES, type.isEmpty() ? "no-event-type" : type, raw, Optional.of(eventId));
      return;
    }
    if (messageId.isEmpty()) {
      mapped.unmapped(ReceiptSource.SES, "no-message-id:" + type, raw, Optional.of(eventId));
      return;
    }
    JsonNode detail = found.get().detail();
    Instant at = isoInstant(detail, "timestamp")
        .or(() -> isoInstant(event.path("mail"), "timestamp"))
        .orElse(Instant.EPOCH);
    mapped.receipt(new Receipt(
        messageId.get(),
        found.get().status(),
        at,
        ReceiptSource.SES,
        found.get().reason(),
        text(detail, "userAgent"),
        text(detail, "ipAddress"),
        false,
        Optional.of(eventId),
        Optional.empty()));
  }

  private record Found(DeliveryStatus status, JsonNode detail, Optional<String> reason) {}

  private static Optional<Found> found(String type, JsonNode event) {
    return switch (type) {
      case "Send" -> found(DeliveryStatus.SENT, event.path("send"), Optional.empty());
      case "Delivery" ->
        found(
            DeliveryStatus.DELIVERED,
            event.path("delivery"),
            text(event.path("delivery"), "smtpResponse"));
      case "Bounce" -> {
        JsonNode bounce = event.path("bounce");
        String bounceType = text(bounce, "bounceType").orElse("");
        // Transient comes only after SES gave up retrying, but the address may take mail later:
        // a soft failure that must not suppress it; Undetermined is not evidence of a bad address
        DeliveryStatus status =
            bounceType.equals("Permanent") ? DeliveryStatus.BOUNCED : DeliveryStatus.DEFERRED;
        yield found(
            status,
            bounce,
            Optional.of(bounceType + "/" + text(bounce, "bounceSubType").orElse("")
                + diagnostic(bounce, "bouncedRecipients")));
      }
      case "Complaint" ->
        found(
            DeliveryStatus.COMPLAINED,
            event.path("complaint"),
            text(event.path("complaint"), "complaintFeedbackType"));
      case "Reject" ->
        found(DeliveryStatus.DROPPED, event.path("reject"), text(event.path("reject"), "reason"));
      case "Rendering Failure", "RenderingFailure" ->
        found(
            DeliveryStatus.DROPPED,
            event.path("failure"),
            text(event.path("failure"), "errorMessage"));
      case "DeliveryDelay" -> {
        JsonNode delay = event.path("deliveryDelay");
        yield found(
            DeliveryStatus.DEFERRED,
            delay,
            Optional.of(
                text(delay, "delayType").orElse("") + diagnostic(delay, "delayedRecipients")));
      }
      case "Open" -> found(DeliveryStatus.OPENED, event.path("open"), Optional.empty());
      case "Click" ->
        found(DeliveryStatus.CLICKED, event.path("click"), text(event.path("click"), "link"));
      case "Subscription" ->
        unsubscribed(event.path("subscription"))
            ? found(DeliveryStatus.UNSUBSCRIBED, event.path("subscription"), Optional.empty())
            : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<Found> found(
      DeliveryStatus status, JsonNode detail, Optional<String> reason) {
    return Optional.of(new Found(status, detail, reason));
  }

  private static String diagnostic(JsonNode detail, String recipients) {
    return text(detail.path(recipients).path(0), "diagnosticCode")
        .map(code -> ": " + code)
        .orElse("");
  }

  /** Opting out of everything, or of any one topic, is an unsubscribe from our point of view. */
  private static boolean unsubscribed(JsonNode subscription) {
    JsonNode preferences = subscription.path("newTopicPreferences");
    if (preferences.path("unsubscribeAll").asBoolean(false)) return true;
    for (JsonNode topic : preferences.path("topicSubscriptionStatus"))
      if ("OptOut".equals(topic.path("subscriptionStatus").asString(""))) return true;
    return false;
  }

  private static Optional<String> messageId(JsonNode mail) {
    for (JsonNode header : mail.path("headers")) {
      if (MessageIds.HEADER.equalsIgnoreCase(header.path("name").asString("")))
        return MessageIds.of(header.path("value"));
    }
    return MessageIds.of(mail.path("tags").path(MessageIds.KEY).path(0));
  }
}

package dev.tidings.delivery.webhook.postmark;

import static dev.tidings.delivery.webhook.WebhookJson.isoInstant;
import static dev.tidings.delivery.webhook.WebhookJson.text;

import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.MessageIds;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A Postmark record as a receipt, keyed on {@code RecordType} and the bounce {@code Type} name (the
 * numeric TypeCode is not consistent across Postmark's own payloads). Our message id is the metadata
 * field {@value MessageIds#KEY}: Postmark returns Metadata on every record type, headers on none.
 */
public final class PostmarkEvents {
  /** Bounce types that say the address is bad or refuses us: the address is to be suppressed. */
  private static final Set<String> HARD = Set.of(
      "HardBounce",
      "BadEmailAddress",
      "SpamNotification",
      "ManuallyDeactivated",
      "Blocked",
      "DMARCPolicy");

  /** Bounce types that may pass: the message failed, the address stays good. */
  private static final Set<String> SOFT =
      Set.of("Transient", "SoftBounce", "DnsError", "VirusNotification", "ChallengeVerification");

  /** Bounce types where Postmark would not send what it accepted. */
  private static final Set<String> NOT_SENT = Set.of("TemplateRenderingFailed", "SMTPApiError");

  private PostmarkEvents() {}

  /** {@code receivedAt} stands in for a record that carries no time (real unsubscribe bounces). */
  public static Mapped map(JsonNode record, Instant receivedAt) {
    if (!record.isObject())
      throw WebhookRefused.malformed("expected one Postmark record (an object)");
    String recordType = text(record, "RecordType")
        .orElseThrow(() -> WebhookRefused.malformed("RecordType is missing"));
    var mapped = new Mapped.Builder();
    String name = recordType + text(record, "Type").map(type -> ":" + type).orElse("");
    Optional<Found> found = found(recordType, record);
    Optional<String> messageId = MessageIds.of(record.path("Metadata").path(MessageIds.KEY));
    if (found.isEmpty())
      return mapped.unmapped(ReceiptSource.POSTMARK, name, raw(record)).build();
    if (messageId.isEmpty())
      return mapped
          .unmapped(ReceiptSource.POSTMARK, "no-message-id:" + name, raw(record))
          .build();
    if (record.has(found.get().timeField())
        && isoInstant(record, found.get().timeField()).isEmpty())
      throw WebhookRefused.malformed(
          found.get().timeField() + " is not an ISO-8601 time with an offset");
    Instant at = isoInstant(record, found.get().timeField()).orElse(receivedAt);
    return mapped
        .receipt(new Receipt(
            messageId.get(),
            found.get().status(),
            at,
            ReceiptSource.POSTMARK,
            found.get().reason(),
            text(record, "UserAgent"),
            text(record.path("Geo"), "IP"),
            false,
            eventId(record),
            Optional.empty()))
        .build();
  }

  private record Found(DeliveryStatus status, String timeField, Optional<String> reason) {}

  private static Optional<Found> found(String recordType, JsonNode record) {
    Optional<String> description = text(record, "Description");
    return switch (recordType) {
      case "Delivery" ->
        Optional.of(new Found(DeliveryStatus.DELIVERED, "DeliveredAt", text(record, "Details")));
      case "Open" -> Optional.of(new Found(DeliveryStatus.OPENED, "ReceivedAt", Optional.empty()));
      case "Click" ->
        Optional.of(new Found(DeliveryStatus.CLICKED, "ReceivedAt", text(record, "OriginalLink")));
      case "SpamComplaint" ->
        Optional.of(new Found(DeliveryStatus.COMPLAINED, "BouncedAt", description));
      case "Bounce" -> bounce(text(record, "Type").orElse(""), description);
      case "SubscriptionChange" -> subscriptionChange(record);
      default -> Optional.empty();
    };
  }

  private static Optional<Found> bounce(String type, Optional<String> description) {
    Optional<String> reason =
        Optional.of(type + description.map(text -> ": " + text).orElse(""));
    DeliveryStatus status;
    if (HARD.contains(type)) status = DeliveryStatus.BOUNCED;
    else if (SOFT.contains(type)) status = DeliveryStatus.DEFERRED;
    else if (NOT_SENT.contains(type)) status = DeliveryStatus.DROPPED;
    // some recipients' unsubscribe replies and complaints arrive as bounces of these types
    else if (type.equals("Unsubscribe")) status = DeliveryStatus.UNSUBSCRIBED;
    else if (type.equals("SpamComplaint")) status = DeliveryStatus.COMPLAINED;
    else return Optional.empty();
    return Optional.of(new Found(status, "BouncedAt", reason));
  }

  /** Only a suppression tells us something about the message; a reactivation is kept as unknown. */
  private static Optional<Found> subscriptionChange(JsonNode record) {
    if (!record.path("SuppressSending").asBoolean(false)) return Optional.empty();
    String reason = text(record, "SuppressionReason").orElse("");
    DeliveryStatus status = switch (reason) {
      case "HardBounce" -> DeliveryStatus.BOUNCED;
      case "SpamComplaint" -> DeliveryStatus.COMPLAINED;
      default -> DeliveryStatus.UNSUBSCRIBED;
    };
    return Optional.of(new Found(status, "ChangedAt", Optional.of(reason)));
  }

  private static Optional<String> eventId(JsonNode record) {
    JsonNode id = record.path("ID");
    return id.isNumber() || id.isString() ? Optional.of(id.asString()) : Optional.empty();
  }

  private static String raw(JsonNode record) {
    return WebhookJson.raw(record);
  }
}

package dev.tidings.delivery;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One thing that happened to one message, from any source, as the delivery pipeline queues and applies
 * it. {@code messageId} is the {@code X-Tidings-Message-Id} text; {@code userAgent} and {@code
 * sourceAddress} (an address class or the address itself, never more) let opens and clicks be told from
 * proxies and scanners; {@code providerSaysMachine} carries a provider's own verdict (SendGrid's
 * {@code sg_machine_open}, Apple Mail Privacy Protection flags); {@code eventId} is the provider's id of
 * the event when it has one; {@code slot} is the slot of a click or image.
 */
public record Receipt(
    String messageId,
    DeliveryStatus status,
    Instant at,
    ReceiptSource source,
    Optional<String> reason,
    Optional<String> userAgent,
    Optional<String> sourceAddress,
    boolean providerSaysMachine,
    Optional<String> eventId,
    Optional<Integer> slot) {
  public Receipt {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(userAgent, "userAgent");
    Objects.requireNonNull(sourceAddress, "sourceAddress");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(slot, "slot");
  }

  /** A receipt with nothing but what every source gives. */
  public static Receipt of(
      String messageId, DeliveryStatus status, Instant at, ReceiptSource source) {
    return new Receipt(
        messageId,
        status,
        at,
        source,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        false,
        Optional.empty(),
        Optional.empty());
  }
}

package dev.tidings.opentime;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Something a mail client did with an email: fetched its open pixel, a slot image, or followed a slot
 * link. Handed to the queue as it happened; telling people from proxies and scanners is the delivery
 * capability's job, so the raw user agent and the class of the source address travel along.
 *
 * @param messageId the email's {@code X-Tidings-Message-Id}
 * @param slot the slot, for slot images and clicks
 * @param productId the product the slot showed, for slot images and clicks
 */
public record Engagement(
    String messageId,
    String subscriberId,
    long campaignId,
    Kind kind,
    Optional<Integer> slot,
    Optional<String> productId,
    Instant at,
    String userAgent,
    SourceClass source) {
  public enum Kind {
    OPEN_PIXEL,
    SLOT_IMAGE,
    SLOT_CLICK
  }

  /** Where the request came from, as far as the address tells. */
  public enum SourceClass {
    LOOPBACK,
    PRIVATE,
    PUBLIC,
    UNKNOWN
  }

  public Engagement {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(subscriberId, "subscriberId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(slot, "slot");
    Objects.requireNonNull(productId, "productId");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(userAgent, "userAgent");
    Objects.requireNonNull(source, "source");
  }
}

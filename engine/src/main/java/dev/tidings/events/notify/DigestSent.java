package dev.tidings.events.notify;

import dev.tidings.events.DomainEvent;
import java.time.Instant;

/** A digest of {@code items} pieces of news went to a subscriber, in the email of {@code campaignId}. */
public record DigestSent(String subscriberId, long campaignId, int items, Instant time)
    implements DomainEvent {
  @Override
  public String subject() {
    return subscriberId;
  }
}

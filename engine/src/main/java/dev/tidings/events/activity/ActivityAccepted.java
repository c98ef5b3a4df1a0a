package dev.tidings.events.activity;

import dev.tidings.events.DomainEvent;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An activity event was accepted: {@code subscriberId} did {@code activity} (view, cart, purchase, ...)
 * with {@code itemId}; {@code eventId} is the shop's own id of the event, when it gave one.
 */
public record ActivityAccepted(
    @Nullable String eventId,
    String subscriberId,
    String activity,
    String itemId,
    int quantity,
    Instant time)
    implements DomainEvent {
  @Override
  public String subject() {
    return subscriberId;
  }
}

package dev.tidings.events.audience;

import dev.tidings.events.DomainEvent;

/** Something that happened to a subscriber's record. */
public sealed interface AudienceEvent extends DomainEvent
    permits Subscribed, ConsentChanged, Unsubscribed, Suppressed, Erased {
  String subscriberId();

  @Override
  default String subject() {
    return subscriberId();
  }
}

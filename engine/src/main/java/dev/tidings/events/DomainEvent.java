package dev.tidings.events;

import java.time.Instant;

/**
 * Something a capability did that others may react to: a record in the emitter's sub-package, listed
 * in {@link EventType}. It carries ids, never e-mail addresses, so it may travel to a shop's systems.
 */
public interface DomainEvent {
  /** The id of whom or what it is about (a subscriber, a product, a campaign): the CloudEvents subject. */
  String subject();

  /** When it happened. */
  Instant time();
}

package dev.tidings.events.delivery;

import dev.tidings.events.DomainEvent;

/** A counted email reached a step of the delivery funnel for the first time. */
public sealed interface FunnelEvent extends DomainEvent
    permits Delivered, Bounced, Complained, Opened, Clicked, Unsubscribed {
  String messageId();

  long campaignId();

  String subscriberId();

  @Override
  default String subject() {
    return subscriberId();
  }
}

package dev.tidings.delivery;

import dev.tidings.events.delivery.Bounced;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Complained;
import dev.tidings.events.delivery.Delivered;
import dev.tidings.events.delivery.FunnelEvent;
import dev.tidings.events.delivery.Opened;
import dev.tidings.events.delivery.Unsubscribed;
import dev.tidings.message.MessageId;
import java.time.Instant;
import java.util.Optional;

/**
 * The event a step new to a message tells. Delivered, opened and clicked are told for counted emails
 * only (a preview's opens are nobody's news); a bounce, a complaint or an unsubscribe is told for every
 * email, as each suppresses the address whatever the email was.
 */
final class FunnelEvents {
  private FunnelEvents() {}

  static Optional<FunnelEvent> of(String messageId, MessageId id, FunnelStep step, Instant at) {
    long campaign = id.campaignId();
    String subscriber = id.subscriberId();
    FunnelEvent event = switch (step) {
      case BOUNCED -> new Bounced(messageId, campaign, subscriber, at);
      case COMPLAINED -> new Complained(messageId, campaign, subscriber, at);
      case UNSUBSCRIBED -> new Unsubscribed(messageId, campaign, subscriber, at);
      case DELIVERED -> id.counted() ? new Delivered(messageId, campaign, subscriber, at) : null;
      case HUMAN_OPENED -> id.counted() ? new Opened(messageId, campaign, subscriber, at) : null;
      case HUMAN_CLICKED -> id.counted() ? new Clicked(messageId, campaign, subscriber, at) : null;
      default -> null;
    };
    return Optional.ofNullable(event);
  }
}

package dev.tidings.audience;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener;
import dev.tidings.events.delivery.Bounced;
import dev.tidings.events.delivery.Complained;
import dev.tidings.events.delivery.Unsubscribed;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Suppresses the address of a subscriber whose email bounced, drew a complaint or was unsubscribed
 * from: a repeat changes nothing (an address is suppressed once, for its first reason).
 */
public final class SuppressionListener implements EventListener {
  public static final String NAME = "audience-suppression";
  private final Jdbi jdbi;
  private final InstantSource clock;

  public SuppressionListener(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<CloudEventType> types() {
    return Set.of(
        CloudEventType.BOUNCED, CloudEventType.COMPLAINED, CloudEventType.EMAIL_UNSUBSCRIBED);
  }

  @Override
  public void apply(List<ReceivedEvent> events) {
    Map<String, SuppressionReason> bySubscriber = new LinkedHashMap<>();
    for (ReceivedEvent received : events) {
      switch (received.event()) {
        case Bounced b -> bySubscriber.putIfAbsent(b.subscriberId(), SuppressionReason.BOUNCE);
        case Complained c ->
          bySubscriber.putIfAbsent(c.subscriberId(), SuppressionReason.COMPLAINT);
        case Unsubscribed u ->
          bySubscriber.putIfAbsent(u.subscriberId(), SuppressionReason.UNSUBSCRIBE);
        default -> {}
      }
    }
    if (bySubscriber.isEmpty()) return;
    jdbi.useTransaction(
        handle -> SuppressionService.suppressSubscribers(handle, bySubscriber, clock.instant()));
  }
}

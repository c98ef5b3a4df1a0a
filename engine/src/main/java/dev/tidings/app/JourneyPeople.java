package dev.tidings.app;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.journeys.People;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.sendtime.SendTimePlanner;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What journeys ask of the people inside them, answered from what the audience, the send-time
 * planner and the delivery funnel publish.
 */
final class JourneyPeople implements People {
  private static final Duration A_DAY = Duration.ofDays(1);
  private final SubscriberService subscribers;
  private final AudienceQuery audiences;
  private final OpenHours openHours;
  private final DeliveryStats delivery;
  // everyone's open hours move slowly; a best hour needs them as the prior for a person with few
  private final LoadingCache<Boolean, long[]> everyone;

  JourneyPeople(
      SubscriberService subscribers,
      AudienceQuery audiences,
      OpenHours openHours,
      DeliveryStats delivery) {
    this.subscribers = subscribers;
    this.audiences = audiences;
    this.openHours = openHours;
    this.delivery = delivery;
    this.everyone = Caffeine.newBuilder()
        .expireAfterWrite(Duration.ofMinutes(10))
        .build(key -> openHours.everyone());
  }

  @Override
  public Map<String, ZoneId> zones(Collection<String> subscriberIds) {
    var zones = new HashMap<String, ZoneId>();
    for (Subscriber subscriber : subscribers.getAll(subscriberIds).values())
      zones.put(subscriber.id(), subscriber.timeZone());
    return zones;
  }

  @Override
  public boolean inSegment(Audience segment, String subscriberId) {
    return audiences.includes(segment, subscriberId);
  }

  @Override
  public Instant bestHourAfter(String subscriberId, ZoneId zone, Instant after) {
    var planner = new SendTimePlanner(0, after, A_DAY, 0, everyone.get(true));
    return planner
        .plan(subscriberId, zone, openHours.counts(List.of(subscriberId)).get(subscriberId))
        .at();
  }

  @Override
  public Map<String, List<SentEmail>> sentSince(Collection<String> subscriberIds, Instant since) {
    var sent = new HashMap<String, List<SentEmail>>();
    delivery.sentSince(subscriberIds, since).forEach((id, emails) -> {
      var list = new ArrayList<SentEmail>(emails.size());
      for (DeliveryStats.Sent email : emails)
        list.add(new SentEmail(email.messageId(), email.at()));
      sent.put(id, list);
    });
    return sent;
  }
}

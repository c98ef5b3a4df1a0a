package dev.tidings.history;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.opentime.ShownProducts;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One subscriber's story as each capability tells it through its own service: the emails delivery
 * knows they were sent (and what became of each), the products open-time showed in them, the
 * campaigns' names, and their latest activity. The API ({@code web.audience}) and the dashboard show
 * the same.
 */
public final class SubscriberHistory {
  /** The funnel steps an email's story shows, in the order a reader's story goes. */
  private static final List<FunnelStep> STORY = List.of(
      FunnelStep.SENT,
      FunnelStep.DELIVERED,
      FunnelStep.OPENED,
      FunnelStep.HUMAN_OPENED,
      FunnelStep.CLICKED,
      FunnelStep.HUMAN_CLICKED,
      FunnelStep.BOUNCED,
      FunnelStep.DROPPED,
      FunnelStep.COMPLAINED,
      FunnelStep.UNSUBSCRIBED);

  /** Longest a read of someone's activity may take before PostgreSQL cancels it. */
  private static final Duration ACTIVITY_TIMEOUT = Duration.ofSeconds(3);

  /** A campaign's name by its id; empty when there is no such campaign (any more). */
  @FunctionalInterface
  public interface CampaignNames {
    Optional<String> of(long campaignId);
  }

  private final DeliveryStats delivery;
  private final ShownProducts shown;
  private final CampaignNames campaigns;
  private final ActivityHistory activity;

  public SubscriberHistory(
      DeliveryStats delivery,
      ShownProducts shown,
      CampaignNames campaigns,
      ActivityHistory activity) {
    this.delivery = delivery;
    this.shown = shown;
    this.campaigns = campaigns;
    this.activity = activity;
  }

  /**
   * One email: what delivery knows of it, its campaign's name, and the products it showed (empty
   * until it was first opened; then in slot order).
   */
  public record Email(
      DeliveryStats.SubscriberMessage message,
      Optional<String> campaignName,
      List<String> productIds,
      Optional<Instant> productsChosenAt) {
    public Email {
      productIds = List.copyOf(productIds);
    }

    /**
     * What became of the email: the steps it reached, in the order a reader's story goes (sent,
     * delivered, opened, opened by a person, clicked, ...; bounced, complained, unsubscribed).
     */
    public List<FunnelStep> story() {
      return STORY.stream().filter(message::reached).toList();
    }
  }

  /** The subscriber's last {@code limit} emails, newest first. */
  public List<Email> emails(String subscriberId, int limit) {
    var messages = delivery.ofSubscriber(subscriberId, limit);
    var products = shown.ofMessages(
        messages.stream().map(DeliveryStats.SubscriberMessage::messageId).toList());
    Map<Long, Optional<String>> names = new HashMap<>();
    return messages.stream()
        .map(message -> {
          var list = Optional.ofNullable(products.get(message.messageId()));
          return new Email(
              message,
              names.computeIfAbsent(message.campaignId(), campaigns::of),
              list.map(ShownProducts.Shown::productIds).orElse(List.of()),
              list.map(ShownProducts.Shown::chosenAt));
        })
        .toList();
  }

  /** The subscriber's last {@code limit} activity events of every type, newest first. */
  public List<ActivityHistory.PastEvent> activity(String subscriberId, int limit) {
    return activity.latestEvents(subscriberId, limit, ACTIVITY_TIMEOUT);
  }
}

package dev.tidings.delivery;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A campaign's delivery figures: the funnel (messages that reached each step, each once), the current
 * status of its messages, rates between funnel steps, human clicks per slot position and the funnel per
 * minute.
 */
public record CampaignStats(
    long campaignId,
    Map<FunnelStep, Long> funnel,
    Map<DeliveryStatus, Long> current,
    Map<String, Double> rates,
    Map<Integer, Long> slotClicks,
    List<Minute> minutes) {

  /** The funnel steps reached during one minute. */
  public record Minute(Instant minute, Map<FunnelStep, Long> steps) {}

  public long count(FunnelStep step) {
    return funnel.getOrDefault(step, 0L);
  }
}

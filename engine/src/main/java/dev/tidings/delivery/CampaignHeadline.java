package dev.tidings.delivery;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few delivery figures a list of campaigns shows for each: how many messages reached the main
 * funnel steps, and the rates an operator reads first. The full figures are {@link CampaignStats}.
 */
public record CampaignHeadline(
    long campaignId, Map<FunnelStep, Long> counts, Map<String, Double> rates) {
  public static final List<FunnelStep> STEPS = List.of(
      FunnelStep.SENT,
      FunnelStep.DELIVERED,
      FunnelStep.OPENED,
      FunnelStep.HUMAN_OPENED,
      FunnelStep.CLICKED,
      FunnelStep.BOUNCED,
      FunnelStep.COMPLAINED,
      FunnelStep.UNSUBSCRIBED);
  public static final List<String> RATES =
      List.of("contact", "delivery", "open", "humanOpen", "click");

  public CampaignHeadline {
    counts = Map.copyOf(counts);
    rates = Map.copyOf(rates);
  }

  /** The headline of a campaign whose funnel is {@code funnel} (steps absent count 0). */
  static CampaignHeadline of(long campaignId, Map<FunnelStep, Long> funnel) {
    Map<FunnelStep, Long> counts = new EnumMap<>(FunnelStep.class);
    for (FunnelStep step : STEPS) counts.put(step, funnel.getOrDefault(step, 0L));
    Map<String, Double> all = DeliveryStats.rates(funnel);
    Map<String, Double> rates = new LinkedHashMap<>();
    for (String rate : RATES) rates.put(rate, all.getOrDefault(rate, 0.0));
    return new CampaignHeadline(campaignId, counts, rates);
  }

  public long count(FunnelStep step) {
    return counts.getOrDefault(step, 0L);
  }
}

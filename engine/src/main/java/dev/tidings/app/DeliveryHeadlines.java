package dev.tidings.app;

import dev.tidings.delivery.CampaignHeadline;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.web.campaign.CampaignHeadlines;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The campaigns list's port answered by the delivery capability's funnel, in API names. */
public final class DeliveryHeadlines implements CampaignHeadlines {
  private final DeliveryStats stats;

  public DeliveryHeadlines(DeliveryStats stats) {
    this.stats = stats;
  }

  @Override
  public Map<Long, Headline> of(List<Long> campaignIds) {
    Map<Long, Headline> headlines = new LinkedHashMap<>();
    stats.headlines(campaignIds).forEach((id, headline) -> {
      Map<String, Long> counts = new LinkedHashMap<>();
      for (FunnelStep step : CampaignHeadline.STEPS) counts.put(step.wire(), headline.count(step));
      Map<String, Double> rates = new LinkedHashMap<>();
      for (String rate : CampaignHeadline.RATES)
        rates.put(rate, headline.rates().getOrDefault(rate, 0.0));
      headlines.put(id, new Headline(counts, rates));
    });
    return headlines;
  }
}

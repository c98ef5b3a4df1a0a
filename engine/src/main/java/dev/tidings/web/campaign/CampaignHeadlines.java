package dev.tidings.web.campaign;

import java.util.List;
import java.util.Map;

/**
 * Where the campaigns list gets each campaign's delivery headline. The delivery capability answers it
 * (the node's wiring connects them): campaigns own their definitions and runs, delivery owns the
 * funnel, and the list is joined here at the HTTP edge so that neither capability reads the other's
 * tables. One call per page, however many campaigns it holds.
 */
@FunctionalInterface
public interface CampaignHeadlines {
  /** Each of {@code campaignIds}' headline; a campaign missing from the answer shows none. */
  Map<Long, Headline> of(List<Long> campaignIds);

  /**
   * Counts of messages that reached each funnel step and rates, keyed by their API names ({@code
   * sent}, {@code humanOpened}, {@code contact} ...), in the order they are shown.
   */
  record Headline(Map<String, Long> counts, Map<String, Double> rates) {}

  /** For an edge without the delivery capability: the list shows no headlines. */
  CampaignHeadlines NONE = campaignIds -> Map.of();
}

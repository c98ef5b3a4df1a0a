package dev.tidings.web.campaign;

import dev.tidings.delivery.SendTimeOutcomes;
import java.util.List;

/**
 * Where a per-subscriber campaign's view gets its cohorts' opens. The delivery capability answers it
 * (the node's wiring connects them), as it does the headlines.
 */
@FunctionalInterface
public interface CampaignSendTimes {
  /** The timed cohort then the hold-out; empty when the campaign had no send-time plan. */
  List<SendTimeOutcomes.Cohort> of(long campaignId);

  /** For an edge without the delivery capability. */
  CampaignSendTimes NONE = campaignId -> List.of();
}

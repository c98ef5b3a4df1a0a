package dev.tidings.app;

import dev.tidings.campaign.Experiment;
import dev.tidings.campaign.ExperimentLedger;
import dev.tidings.message.MessageId;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.stats.Proportion;
import java.util.List;

/** The optimize capability as the record of campaigns' experiments. */
public final class OptimizeExperiments implements ExperimentLedger {
  private final CampaignExperiments experiments;

  OptimizeExperiments(CampaignExperiments experiments) {
    this.experiments = experiments;
  }

  /** An experiment of a campaign definition as the analysis sees it. */
  public static CampaignExperiments.Plan plan(Experiment experiment) {
    return new CampaignExperiments.Plan(
        experiment.variants().stream().map(Experiment.Variant::name).toList(),
        experiment.metric() == Experiment.Metric.HUMAN_OPEN
            ? CampaignExperiments.Goal.OPEN
            : CampaignExperiments.Goal.CLICK,
        experiment.alpha());
  }

  @Override
  public void sent(MessageId message, int variant) {
    experiments.sent(message.campaignId(), message.text(), message.subscriberId(), variant);
  }

  @Override
  public List<Proportion> results(long campaignId, Experiment experiment) {
    return experiments.results(
        campaignId, experiment.variants().size(), plan(experiment).goal());
  }
}

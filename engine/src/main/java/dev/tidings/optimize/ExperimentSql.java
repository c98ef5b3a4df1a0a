package dev.tidings.optimize;

import dev.tidings.storage.PublishedSql;

/**
 * The experiments' sends as a predicate on a subscriber row aliased {@code s}, for statements other
 * capabilities compose (a campaign's segment "in the experiment of campaign X").
 */
public final class ExperimentSql {
  private ExperimentSql() {}

  /** The subscriber was sent a variant of campaign {@code :<p>campaign}'s experiment. */
  public static String sentInExperiment(String p) {
    return PublishedSql.by(
        ExperimentSql.class,
        "EXISTS (SELECT 1 FROM experiment_sends x WHERE x.campaign_id = :" + p
            + "campaign AND x.subscriber_id = s.id)");
  }
}

package dev.tidings.campaign;

import dev.tidings.message.MessageId;
import dev.tidings.optimize.stats.Proportion;
import java.util.List;

/**
 * Where a campaign's experiment records which variant each sent email was, and reads how each variant
 * converts so far (the optimize capability answers, from the delivery funnel's human steps).
 */
public interface ExperimentLedger {
  /** For nodes that run no experiments: nothing is recorded, every variant has no results. */
  ExperimentLedger NONE = new ExperimentLedger() {
    @Override
    public void sent(MessageId message, int variant) {}

    @Override
    public List<Proportion> results(long campaignId, Experiment experiment) {
      return experiment.variants().stream().map(variant -> Proportion.of(0, 0)).toList();
    }
  };

  /** The email {@code message}, of variant {@code variant}, was sent: one impression of it. */
  void sent(MessageId message, int variant);

  /** Per variant, in order: emails sent and, of those, conversions on the experiment's metric. */
  List<Proportion> results(long campaignId, Experiment experiment);
}

package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.MutableClock;
import dev.tidings.message.MessageId;
import dev.tidings.optimize.stats.Proportion;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VariantChooserTest {
  private static Experiment experiment(Experiment.Allocation allocation, double testShare) {
    return new Experiment(
        allocation,
        Experiment.Metric.HUMAN_OPEN,
        List.of(variant("A"), variant("B"), variant("C")),
        testShare,
        0.05);
  }

  private static Experiment.Variant variant(String name) {
    return new Experiment.Variant(name, Optional.empty(), Optional.empty(), Optional.empty());
  }

  @Test
  void an_ab_test_splits_its_cohort_evenly_holds_back_the_rest_and_never_changes_its_mind() {
    var chooser = new VariantChooser(ExperimentLedger.NONE, InstantSource.system());
    var experiment = experiment(Experiment.Allocation.AB, 0.3);
    int[] counts = new int[4];
    for (int i = 0; i < 30_000; i++) {
      var choice = chooser.choose(7, experiment, "s-" + i);
      counts[choice instanceof VariantChooser.Choice.Send send ? send.variant() : 3]++;
      assertThat(chooser.choose(7, experiment, "s-" + i)).isEqualTo(choice);
    }
    assertThat(counts[3]).isBetween(20_400, 21_600); // 70% held back
    for (int v = 0; v < 3; v++) assertThat(counts[v]).isBetween(2_700, 3_300);
    assertThat(VariantChooser.point(7, "s-1")).isNotEqualTo(VariantChooser.point(8, "s-1"));
  }

  @Test
  void a_bandit_sends_most_emails_to_the_variant_that_converts_best_and_reads_results_rarely() {
    var reads = new AtomicInteger();
    var ledger = new ExperimentLedger() {
      @Override
      public void sent(MessageId message, int variant) {}

      @Override
      public List<Proportion> results(long campaignId, Experiment experiment) {
        reads.incrementAndGet();
        return List.of(Proportion.of(100, 1000), Proportion.of(160, 1000), Proportion.of(90, 1000));
      }
    };
    var chooser = new VariantChooser(ledger, InstantSource.fixed(Instant.EPOCH));
    var experiment = experiment(Experiment.Allocation.BANDIT, 1);
    int[] counts = new int[3];
    for (int i = 0; i < 2_000; i++)
      counts[((VariantChooser.Choice.Send) chooser.choose(7, experiment, "s-" + i)).variant()]++;
    assertThat(counts[1]).isGreaterThan(1_950);
    assertThat(reads.get()).as("read once per refresh, not per email").isEqualTo(1);
  }

  @Test
  void a_bandit_reads_its_results_again_once_the_refresh_has_passed() {
    var reads = new AtomicInteger();
    var ledger = new ExperimentLedger() {
      @Override
      public void sent(MessageId message, int variant) {}

      @Override
      public List<Proportion> results(long campaignId, Experiment experiment) {
        reads.incrementAndGet();
        return List.of(Proportion.of(1, 10), Proportion.of(1, 10), Proportion.of(1, 10));
      }
    };
    var clock = new MutableClock();
    var chooser = new VariantChooser(ledger, clock);
    var experiment = experiment(Experiment.Allocation.BANDIT, 1);

    chooser.choose(7, experiment, "s-1");
    clock.advance(VariantChooser.REFRESH.minusMillis(1));
    chooser.choose(7, experiment, "s-2");
    assertThat(reads).hasValue(1);

    clock.advance(Duration.ofMillis(1));
    chooser.choose(7, experiment, "s-3");
    assertThat(reads).hasValue(2);
  }
}

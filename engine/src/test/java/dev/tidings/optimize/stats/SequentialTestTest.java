package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.distribution.DiscreteDistribution;
import org.junit.jupiter.api.Test;

/**
 * Simulated experiments with known true rates: 2,000 runs each, 25 looks of 200 visitors per arm, a look after
 * every batch, stopping at the first look that rejects.
 */
class SequentialTestTest {
  private static final int RUNS = 2_000;
  private static final int LOOKS = 25;
  private static final int BATCH = 200;
  private static final double ALPHA = 0.05;
  private static final double BASE_RATE = 0.10;

  private final SequentialTest test = SequentialTest.forEffect(ALPHA, BASE_RATE, 0.20);

  @Test
  void always_valid_p_value_holds_the_false_positive_rate_under_repeated_looks() {
    var outcome = simulate(BASE_RATE, BASE_RATE, 1);
    report("A/A false-positive rate, always-valid p-value", outcome.sequentialRejections());
    assertThat(outcome.sequentialRejections() / (double) RUNS).isLessThanOrEqualTo(ALPHA);
  }

  @Test
  void a_badly_chosen_tau_costs_power_but_not_validity() {
    // Ten times too small and ten times too large a mixing scale for this effect: still at most 5%
    // false positives under repeated looks.
    for (double tau : new double[] {0.002, 0.2}) {
      var outcome = simulate(new SequentialTest(ALPHA, tau), BASE_RATE, BASE_RATE, 4);
      report("A/A false-positive rate, tau " + tau, outcome.sequentialRejections());
      assertThat(outcome.sequentialRejections() / (double) RUNS).isLessThanOrEqualTo(ALPHA);
    }
  }

  @Test
  void naive_z_tests_at_every_look_exceed_the_nominal_false_positive_rate() {
    // The same A/A experiments judged by a fixed-horizon z-test after every batch: peeking inflates
    // the error, which is what the sequential test exists to prevent.
    var outcome = simulate(BASE_RATE, BASE_RATE, 1);
    report("A/A false-positive rate, z-test at every look", outcome.naiveRejections());
    assertThat(outcome.naiveRejections() / (double) RUNS).isGreaterThan(2 * ALPHA);
  }

  @Test
  void confidence_sequence_covers_the_true_difference_at_every_look() {
    var outcome = simulate(BASE_RATE, 0.12, 2);
    assertThat(outcome.everMissedTruth() / (double) RUNS).isLessThanOrEqualTo(ALPHA);
  }

  @Test
  void sequential_test_detects_a_real_lift_and_names_the_right_winner() {
    // 10% against 12%: SampleSize says 3,841 per arm for 80% power at one pre-registered look; the
    // sequential test may look 25 times up to 5,000 per arm and still finds most of them.
    var outcome = simulate(BASE_RATE, 0.12, 3);
    double power = outcome.sequentialRejections() / (double) RUNS;
    report("power for 10% against 12%, always-valid p-value", outcome.sequentialRejections());
    assertThat(power).isGreaterThan(0.6);
    assertThat(outcome.wrongWinner()).isZero();
  }

  private static void report(String what, int runs) {
    System.out.printf("%s: %.4f (%d of %d runs)%n", what, runs / (double) RUNS, runs, RUNS);
  }

  private Outcome simulate(double controlRate, double variantRate, long seed) {
    return simulate(test, controlRate, variantRate, seed);
  }

  private static Outcome simulate(
      SequentialTest test, double controlRate, double variantRate, long seed) {
    var random = new SplittableRandom(seed);
    UniformRandomProvider source = random::nextLong;
    DiscreteDistribution.Sampler controlBatch =
        BinomialDistribution.of(BATCH, controlRate).createSampler(source);
    DiscreteDistribution.Sampler variantBatch =
        BinomialDistribution.of(BATCH, variantRate).createSampler(source);
    double truth = variantRate - controlRate;
    int sequential = 0;
    int naive = 0;
    int missed = 0;
    int wrong = 0;
    for (int run = 0; run < RUNS; run++) {
      var control = Proportion.of(0, 0);
      var variant = Proportion.of(0, 0);
      SequentialTest.Look look = test.look(control, variant);
      boolean naiveRejected = false;
      boolean missedTruth = false;
      for (int i = 0; i < LOOKS; i++) {
        control = control.plus(Proportion.of(controlBatch.sample(), BATCH));
        variant = variant.plus(Proportion.of(variantBatch.sample(), BATCH));
        look = test.look(control, variant, look);
        naiveRejected |= TwoProportionTest.zTest(control, variant).pValue() <= ALPHA;
        missedTruth |= !look.interval().contains(truth);
      }
      if (look.decision() != SequentialTest.Decision.CONTINUE) sequential++;
      if (look.decision() == SequentialTest.Decision.CONTROL_BETTER && truth > 0) wrong++;
      if (naiveRejected) naive++;
      if (missedTruth) missed++;
    }
    return new Outcome(sequential, naive, missed, wrong);
  }

  /**
   * Runs that ended rejecting the null (the p-value only falls, so a rejection at any look stays), runs the
   * naive z-test rejected at some look, runs whose confidence sequence missed the truth once, and runs that
   * named the worse arm the winner.
   */
  private record Outcome(
      int sequentialRejections, int naiveRejections, int everMissedTruth, int wrongWinner) {}
}

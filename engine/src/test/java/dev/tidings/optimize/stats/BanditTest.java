package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.commons.numbers.gamma.LogBeta;
import org.junit.jupiter.api.Test;

class BanditTest {
  @Test
  void probability_best_of_two_arms_matches_the_closed_form() {
    // For two Beta posteriors P(B > A) has a closed form (Evan Miller, "Formulas for Bayesian A/B
    // Testing"): sum over i < aB of B(aA + i, bA + bB) / ((bB + i) B(1 + i, bB) B(aA, bA)).
    var a = Proportion.of(30, 400);
    var b = Proportion.of(42, 400);
    double exact = probabilityBBeatsA(
        1 + a.successes(), 1 + a.failures(), 1 + b.successes(), 1 + b.failures());
    double[] estimate = ProbabilityBest.of(List.of(a, b), 200_000, new SplittableRandom(11));
    assertThat(estimate[1]).isCloseTo(exact, within(0.005));
    assertThat(estimate[0] + estimate[1]).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void probability_best_splits_evenly_between_identical_arms() {
    var arm = Proportion.of(50, 1_000);
    double[] estimate =
        ProbabilityBest.of(List.of(arm, arm, arm), 60_000, new SplittableRandom(12));
    for (double p : estimate) assertThat(p).isCloseTo(1.0 / 3, within(0.01));
  }

  @Test
  void thompson_sampling_regret_is_below_uniform_allocation() {
    double[] trueRates = {0.04, 0.05, 0.03};
    int horizon = 10_000;
    int repeats = 10;
    var random = new SplittableRandom(13);
    double thompsonRegret = 0;
    double uniformRegret = 0;
    for (int repeat = 0; repeat < repeats; repeat++) {
      thompsonRegret += regret(trueRates, horizon, random, true);
      uniformRegret += regret(trueRates, horizon, random, false);
    }
    // Uniform allocation pays the mean gap on every send: 10,000 * (0.01 + 0.02) / 3 = 100 per run.
    assertThat(uniformRegret / repeats).isCloseTo(100, within(1.0));
    assertThat(thompsonRegret / repeats).isLessThan(0.5 * uniformRegret / repeats);
  }

  /** Expected conversions lost against always sending the best arm (the pseudo-regret). */
  private static double regret(
      double[] trueRates, int horizon, SplittableRandom random, boolean thompson) {
    double best = Math.max(trueRates[0], Math.max(trueRates[1], trueRates[2]));
    var arms = new ArrayList<Proportion>();
    for (int i = 0; i < trueRates.length; i++) arms.add(Proportion.of(0, 0));
    double regret = 0;
    for (int t = 0; t < horizon; t++) {
      int arm = thompson ? ThompsonSampling.choose(arms, random) : t % trueRates.length;
      boolean converted = random.nextDouble() < trueRates[arm];
      arms.set(arm, arms.get(arm).plus(Proportion.of(converted ? 1 : 0, 1)));
      regret += best - trueRates[arm];
    }
    return regret;
  }

  private static double probabilityBBeatsA(
      double alphaA, double betaA, double alphaB, double betaB) {
    double total = 0;
    for (int i = 0; i < alphaB; i++) {
      total += Math.exp(LogBeta.value(alphaA + i, betaA + betaB)
          - Math.log(betaB + i)
          - LogBeta.value(1 + i, betaB)
          - LogBeta.value(alphaA, betaA));
    }
    return total;
  }
}

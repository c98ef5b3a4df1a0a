package dev.tidings.optimize;

import dev.tidings.optimize.stats.Interval;
import dev.tidings.optimize.stats.Intervals;
import dev.tidings.optimize.stats.ProbabilityBest;
import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.SequentialTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * An experiment's results and decision. Each challenger is compared with the control by the always-valid
 * sequential test ({@link SequentialTest}), at {@code alpha} divided among the challengers (Bonferroni),
 * so the results may be looked at as often as anyone likes. A challenger that is better wins (the best
 * such, when several are); the control wins when every challenger is worse. Rates carry 95% Wilson
 * intervals, comparisons the test's confidence sequence for the difference, and every variant the
 * posterior probability of being best.
 *
 * <p>The test's mixing scale τ is set per goal in advance, as the test requires: about a tenth of a
 * typical rate, 0.02 for opens (around 20%) and 0.005 for clicks (around 3-5%).
 */
public record ExperimentReport(
    CampaignExperiments.Plan plan, List<Variant> variants, Optional<Decided> decision) {
  static final int DRAWS = 20_000;

  /** One variant: its counts, rate with interval, chance of being best, and how it compares. */
  public record Variant(
      String name,
      long sent,
      long conversions,
      double rate,
      Interval interval,
      double probabilityBest,
      Optional<Comparison> versusControl) {}

  /** A challenger against the control: difference of rates, relative lift, interval and p-value. */
  public record Comparison(
      double difference, double relativeLift, Interval interval, double pValue) {}

  /** The decision: the winning variant, when, and the comparison that made it. */
  public record Decided(
      int winner, Instant decidedAt, double pValue, double difference, Interval interval) {}

  static ExperimentReport of(
      CampaignExperiments.Plan plan, List<Proportion> results, Optional<Decided> kept) {
    int challengers = results.size() - 1;
    var test = new SequentialTest(plan.alpha() / challengers, tau(plan.goal()));
    Proportion control = results.getFirst();
    // the draws are seeded by the counts, so the same results always show the same probabilities
    double[] best = ProbabilityBest.of(results, DRAWS, new SplittableRandom(results.hashCode()));
    List<Variant> variants = new ArrayList<>(results.size());
    List<SequentialTest.Look> looks = new ArrayList<>(results.size());
    for (int i = 0; i < results.size(); i++) {
      Proportion arm = results.get(i);
      Optional<Comparison> comparison = Optional.empty();
      if (i > 0) {
        var look = test.look(control, arm);
        looks.add(look);
        comparison = Optional.of(new Comparison(
            look.difference(),
            control.rate() > 0 ? look.difference() / control.rate() : 0,
            look.interval(),
            look.pValue()));
      }
      variants.add(new Variant(
          plan.variants().get(i),
          arm.trials(),
          arm.successes(),
          arm.rate(),
          Intervals.wilson(arm, 0.95),
          best[i],
          comparison));
    }
    return new ExperimentReport(
        plan, variants, kept.isPresent() ? kept : decide(results, looks, Instant.EPOCH));
  }

  private static Optional<Decided> decide(
      List<Proportion> results, List<SequentialTest.Look> looks, Instant at) {
    int winner = -1;
    for (int i = 0; i < looks.size(); i++)
      if (looks.get(i).decision() == SequentialTest.Decision.VARIANT_BETTER
          && (winner < 0 || results.get(i + 1).rate() > results.get(winner).rate())) winner = i + 1;
    if (winner > 0) {
      var look = looks.get(winner - 1);
      return Optional.of(
          new Decided(winner, at, look.pValue(), look.difference(), look.interval()));
    }
    if (looks.stream()
        .allMatch(look -> look.decision() == SequentialTest.Decision.CONTROL_BETTER)) {
      // the control beats the closest challenger too: report that comparison
      var closest = looks.stream()
          .max((a, b) -> Double.compare(a.difference(), b.difference()))
          .orElseThrow();
      return Optional.of(
          new Decided(0, at, closest.pValue(), closest.difference(), closest.interval()));
    }
    return Optional.empty();
  }

  static double tau(CampaignExperiments.Goal goal) {
    return goal == CampaignExperiments.Goal.OPEN ? 0.02 : 0.005;
  }
}

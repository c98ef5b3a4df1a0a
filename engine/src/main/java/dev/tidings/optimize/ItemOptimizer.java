package dev.tidings.optimize;

import dev.tidings.optimize.stats.MultipleComparisons;
import dev.tidings.optimize.stats.TestResult;
import dev.tidings.optimize.stats.TwoProportionTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One item's decision: every challenger with enough impressions is tested against the current
 * configuration (z-test, or Fisher's exact test when counts are small), Holm's correction keeps the chance
 * of a false winner among them at the threshold, and of the challengers that are significantly better the one
 * with the highest rate wins.
 */
public final class ItemOptimizer {
  private final OptimizationCriteria criteria;

  public ItemOptimizer(OptimizationCriteria criteria) {
    this.criteria = criteria;
  }

  /** A challenger tested against the current configuration, with its Holm-adjusted p-value. */
  public record Challenger(Arm arm, TestResult result, double adjustedPValue) {}

  /** An item with its challengers tested. */
  public record Assessment(String itemId, Arm current, List<Challenger> challengers) {
    /**
     * The item's p-value for a correction across items: the smallest adjusted p-value of a challenger that
     * converts better, 1 when none does.
     */
    public double pValue() {
      double smallest = 1;
      for (Challenger challenger : challengers)
        if (challenger.result().difference() > 0)
          smallest = Math.min(smallest, challenger.adjustedPValue());
      return smallest;
    }
  }

  /** An item's current configuration and the challengers with enough impressions to be compared with it. */
  public record Eligible(Arm current, List<Arm> challengers) {}

  /** Empty when the current configuration or every challenger has too few impressions. */
  public Optional<Eligible> eligible(List<Arm> arms) {
    Arm current = null;
    var challengers = new ArrayList<Arm>(arms.size());
    for (Arm arm : arms) {
      if (arm.current()) current = arm;
      else if (arm.counts().trials() >= criteria.minImpressions()) challengers.add(arm);
    }
    if (current == null
        || challengers.isEmpty()
        || current.counts().trials() < criteria.minImpressions()) return Optional.empty();
    return Optional.of(new Eligible(current, challengers));
  }

  /** Tests the item's challengers; empty when the current configuration or every challenger has too few impressions. */
  public Optional<Assessment> assess(String itemId, List<Arm> arms) {
    var found = eligible(arms);
    if (found.isEmpty()) return Optional.empty();
    Arm current = found.get().current();
    var eligible = found.get().challengers();
    var results = new TestResult[eligible.size()];
    var pValues = new double[eligible.size()];
    for (int i = 0; i < results.length; i++) {
      results[i] = TwoProportionTest.compare(current.counts(), eligible.get(i).counts());
      pValues[i] = results[i].pValue();
    }
    double[] adjusted = MultipleComparisons.holmAdjusted(pValues);
    var challengers = new ArrayList<Challenger>(results.length);
    for (int i = 0; i < results.length; i++)
      challengers.add(new Challenger(eligible.get(i), results[i], adjusted[i]));
    return Optional.of(new Assessment(itemId, current, List.copyOf(challengers)));
  }

  /** The better challenger with the highest rate among those whose adjusted p-value is at most {@code threshold}. */
  public Optional<ItemChange> winner(Assessment assessment, double threshold) {
    Challenger best = null;
    for (Challenger challenger : assessment.challengers()) {
      if (challenger.adjustedPValue() > threshold || challenger.result().difference() <= 0)
        continue;
      if (best == null || challenger.result().difference() > best.result().difference())
        best = challenger;
    }
    if (best == null) return Optional.empty();
    return Optional.of(new ItemChange(
        assessment.itemId(),
        assessment.current().configurationId(),
        best.arm().configurationId(),
        assessment.current().counts(),
        best.arm().counts(),
        best.result(),
        assessment.challengers().size(),
        best.adjustedPValue(),
        threshold,
        Double.NaN));
  }

  /** The item's decision on its own: Holm across its challengers at alpha. */
  public Optional<ItemChange> decide(String itemId, List<Arm> arms) {
    return assess(itemId, arms).flatMap(assessment -> winner(assessment, criteria.alpha()));
  }
}

package dev.tidings.optimize;

import dev.tidings.optimize.stats.MultipleComparisons;
import dev.tidings.optimize.stats.TestResult;
import dev.tidings.optimize.stats.TwoProportionTest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One item's decision: every challenger with enough impressions is tested against the current
 * configuration (z-test, or Fisher's exact test when counts are small), Holm's correction keeps the chance
 * of a false winner among them at alpha, and of the challengers that are significantly better the one with
 * the highest rate wins.
 */
public final class ItemOptimizer {
  private final OptimizationCriteria criteria;

  public ItemOptimizer(OptimizationCriteria criteria) {
    this.criteria = criteria;
  }

  public Optional<ItemChange> decide(String itemId, List<Arm> arms) {
    Arm current = null;
    var challengers = new ArrayList<Arm>(arms.size());
    for (Arm arm : arms) {
      if (arm.current()) current = arm;
      else if (arm.counts().trials() >= criteria.minImpressions()) challengers.add(arm);
    }
    if (current == null
        || challengers.isEmpty()
        || current.counts().trials() < criteria.minImpressions()) return Optional.empty();
    var results = new TestResult[challengers.size()];
    var pValues = new double[challengers.size()];
    for (int i = 0; i < results.length; i++) {
      results[i] =
          TwoProportionTest.compare(current.counts(), challengers.get(i).counts());
      pValues[i] = results[i].pValue();
    }
    boolean[] rejected = MultipleComparisons.holm(pValues, criteria.alpha());
    int best = -1;
    for (int i = 0; i < results.length; i++) {
      if (!rejected[i] || results[i].difference() <= 0) continue;
      if (best < 0 || results[i].difference() > results[best].difference()) best = i;
    }
    if (best < 0) return Optional.empty();
    return Optional.of(new ItemChange(
        itemId,
        current.configurationId(),
        challengers.get(best).configurationId(),
        current.counts(),
        challengers.get(best).counts(),
        results[best],
        challengers.size(),
        holmThreshold(pValues, best)));
  }

  /** The threshold Holm compared the winner's p-value with: alpha over the hypotheses left at its rank. */
  private double holmThreshold(double[] pValues, int index) {
    double[] sorted = pValues.clone();
    Arrays.sort(sorted);
    int rank = Arrays.binarySearch(sorted, pValues[index]);
    while (rank > 0 && sorted[rank - 1] == pValues[index]) rank--;
    return criteria.alpha() / (pValues.length - rank);
  }
}

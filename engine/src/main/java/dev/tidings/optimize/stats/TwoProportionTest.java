package dev.tidings.optimize.stats;

import org.apache.commons.statistics.distribution.HypergeometricDistribution;

/** Does a variant's rate differ from its control's? Two-sided tests on the 2x2 table of the two proportions. */
public final class TwoProportionTest {
  static final double INTERVAL_CONFIDENCE = 0.95;

  /** Below this expected count in any cell the normal approximation is not trusted (Cochran's rule). */
  static final double SMALLEST_EXPECTED_CELL = 5;

  /** Fisher's test sums the tables no likelier than the observed one; this absorbs rounding in that tie. */
  private static final double RELATIVE_TIE = 1e-7;

  private TwoProportionTest() {}

  /** The z-test, or Fisher's exact test when any expected cell of the 2x2 table is below 5. */
  public static TestResult compare(Proportion control, Proportion variant) {
    return needsExactTest(control, variant)
        ? fisherExact(control, variant)
        : zTest(control, variant);
  }

  public static boolean needsExactTest(Proportion control, Proportion variant) {
    double total = control.trials() + variant.trials();
    if (total == 0) return true;
    double successes = control.successes() + variant.successes();
    double failures = total - successes;
    double smallerArm = Math.min(control.trials(), variant.trials());
    double smallerMargin = Math.min(successes, failures);
    return smallerArm * smallerMargin / total < SMALLEST_EXPECTED_CELL;
  }

  /** The two-sided two-proportion z-test with the pooled standard error (the null says both rates are equal). */
  public static TestResult zTest(Proportion control, Proportion variant) {
    double statistic = zStatistic(control, variant);
    double pValue = 2 * Intervals.STANDARD_NORMAL.survivalProbability(Math.abs(statistic));
    return result(control, variant, statistic, Math.min(1, pValue), TestMethod.Z_TEST);
  }

  /** Fisher's exact test, two-sided: the probability of tables with the same margins no likelier than this one. */
  public static TestResult fisherExact(Proportion control, Proportion variant) {
    return result(
        control,
        variant,
        zStatistic(control, variant),
        fisherPValue(control, variant),
        TestMethod.FISHER_EXACT);
  }

  static double zStatistic(Proportion control, Proportion variant) {
    if (control.trials() == 0 || variant.trials() == 0) return 0;
    double pooled = (double) (control.successes() + variant.successes())
        / (control.trials() + variant.trials());
    double standardError =
        Math.sqrt(pooled * (1 - pooled) * (1.0 / control.trials() + 1.0 / variant.trials()));
    return standardError == 0 ? 0 : (variant.rate() - control.rate()) / standardError;
  }

  static double fisherPValue(Proportion control, Proportion variant) {
    long total = control.trials() + variant.trials();
    long successes = control.successes() + variant.successes();
    if (total == 0) return 1;
    var distribution = HypergeometricDistribution.of(
        Math.toIntExact(total), Math.toIntExact(successes), Math.toIntExact(control.trials()));
    int observed = Math.toIntExact(control.successes());
    double observedLog = distribution.logProbability(observed);
    double threshold = observedLog + Math.log1p(RELATIVE_TIE);
    double pValue = 0;
    for (int x = distribution.getSupportLowerBound();
        x <= distribution.getSupportUpperBound();
        x++) {
      double log = distribution.logProbability(x);
      if (log <= threshold) pValue += Math.exp(log);
    }
    return Math.min(1, pValue);
  }

  private static TestResult result(
      Proportion control, Proportion variant, double statistic, double pValue, TestMethod method) {
    double difference = variant.rate() - control.rate();
    double relativeLift = control.rate() == 0 ? Double.NaN : difference / control.rate();
    return new TestResult(
        statistic,
        pValue,
        difference,
        relativeLift,
        Intervals.newcombe(control, variant, INTERVAL_CONFIDENCE),
        method);
  }
}

package dev.tidings.optimize.stats;

/** Fixed-horizon planning: how many trials each arm needs before a single, pre-registered look. */
public final class SampleSize {
  private SampleSize() {}

  /**
   * Trials per arm for a two-sided two-proportion z-test at {@code alpha} to detect a relative lift of
   * {@code minimumDetectableLift} over {@code baseRate} with probability {@code power} (Fleiss, Levin and
   * Paik, Statistical Methods for Rates and Proportions, 3rd ed., eq. 4.14, without continuity correction).
   */
  public static long perArm(
      double baseRate, double minimumDetectableLift, double alpha, double power) {
    MultipleComparisons.requireAlpha(alpha);
    if (!(baseRate > 0 && baseRate < 1)) {
      throw new IllegalArgumentException("baseRate must be within (0, 1) but was " + baseRate);
    }
    if (!(power > 0 && power < 1)) {
      throw new IllegalArgumentException("power must be within (0, 1) but was " + power);
    }
    double p1 = baseRate;
    double p2 = baseRate * (1 + minimumDetectableLift);
    if (minimumDetectableLift == 0 || !(p2 > 0 && p2 < 1)) {
      throw new IllegalArgumentException(
          "baseRate %s with lift %s must give a different rate within (0, 1)"
              .formatted(baseRate, minimumDetectableLift));
    }
    double zAlpha = Intervals.criticalValue(1 - alpha);
    double zBeta = Intervals.STANDARD_NORMAL.inverseCumulativeProbability(power);
    double mean = (p1 + p2) / 2;
    double numerator = zAlpha * Math.sqrt(2 * mean * (1 - mean))
        + zBeta * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
    double delta = p2 - p1;
    return (long) Math.ceil(numerator * numerator / (delta * delta));
  }
}

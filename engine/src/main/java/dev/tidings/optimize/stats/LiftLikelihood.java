package dev.tidings.optimize.stats;

/**
 * How likely an item's counts are if one arm converts {@code exp(logLift)} times as often as the others,
 * relative to all converting alike, with the common rate taken out.
 *
 * <p>Given the conversions of all arms together, each conversion fell on an arm in proportion to that arm's
 * impressions times its lift, whatever the common rate was, so the comparison needs no estimate of that
 * rate (Poisson conditioning). Conversions are binomial rather than Poisson, though: at a rate p the counts
 * vary (1 - p) times as much as Poisson counts, so the conditioned log-likelihood is sharpened by
 * {@code 1 / (1 - p)}. Without it an item with 10% conversion looked 10% less sure than it is, and the
 * estimated share of false changes came out above the real one (on the benchmark 5% estimated, 4.2% real,
 * with fewer changes named).
 */
public final class LiftLikelihood {
  /** Above this pooled rate the binomial correction is held: the Poisson picture no longer fits anyway. */
  private static final double HIGHEST_CALIBRATED_RATE = 0.9;

  private LiftLikelihood() {}

  /**
   * The log-likelihood ratio, against no difference, of an arm with {@code armConversions} out of
   * {@code armShare} of the item's impressions among {@code allConversions} conversions, when the arm's lift is
   * {@code exp(logLift)} and every other arm's is 1.
   */
  public static double logRatio(
      double armConversions,
      double allConversions,
      double armShare,
      double calibration,
      double logLift) {
    return logRatio(
        armConversions, allConversions, armShare, calibration, logLift, Math.expm1(logLift));
  }

  /** {@link #logRatio(double, double, double, double, double)} with {@code exp(logLift) - 1} worked out. */
  static double logRatio(
      double armConversions,
      double allConversions,
      double armShare,
      double calibration,
      double logLift,
      double liftMinusOne) {
    return calibration
        * (armConversions * logLift - allConversions * Math.log1p(armShare * liftMinusOne));
  }

  /** The sharpening of the Poisson likelihood for binomial counts at the pooled rate. */
  public static double calibration(long conversions, long impressions) {
    if (impressions == 0) return 1;
    double rate = Math.min(HIGHEST_CALIBRATED_RATE, (double) conversions / impressions);
    return 1 / (1 - rate);
  }
}

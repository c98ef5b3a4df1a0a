package dev.tidings.optimize.stats;

/**
 * An always-valid test of two proportions: the mixture sequential probability ratio test (mSPRT) of Johari,
 * Pekelis and Walsh, "Always Valid Inference: Continuous Monitoring of A/B Tests" (Operations Research,
 * 2022). Its p-value and confidence sequence stay valid however often the results are looked at, so an
 * experiment may stop as soon as {@link Look#decision()} is no longer {@link Decision#CONTINUE}; a
 * fixed-horizon z-test checked after every batch would declare far more false winners (see the tests).
 *
 * <p>The difference of rates {@code θ = variant - control} is estimated by {@code θ̂} with variance
 * {@code V = p̂c(1-p̂c)/nc + p̂v(1-p̂v)/nv}. Against a normal mixture {@code θ ~ N(0, τ²)} the likelihood ratio
 * of the normal approximation is {@code Λ = sqrt(V/(V+τ²)) · exp(τ²θ̂² / (2V(V+τ²)))}; the always-valid
 * p-value is the running minimum of {@code 1/Λ}.
 *
 * <p>Choosing τ: the test is most efficient for effects of about size τ, and stays valid for any τ. Too large
 * a τ wastes power on small effects, too small a τ is slow to confirm large ones. Use the absolute difference
 * worth detecting, e.g. τ = 0.01 for a 10% rate where a 10% relative lift matters; {@link #forEffect} says
 * that in code.
 */
public final class SequentialTest {
  private final double alpha;
  private final double tauSquared;

  /** The mSPRT at level {@code alpha} with mixing standard deviation {@code tau} on the difference of rates. */
  public SequentialTest(double alpha, double tau) {
    MultipleComparisons.requireAlpha(alpha);
    if (!(tau > 0 && tau <= 1)) {
      throw new IllegalArgumentException("tau must be within (0, 1] but was " + tau);
    }
    this.alpha = alpha;
    this.tauSquared = tau * tau;
  }

  /** Tuned for detecting a relative lift of {@code minimumDetectableLift} over {@code baseRate}. */
  public static SequentialTest forEffect(
      double alpha, double baseRate, double minimumDetectableLift) {
    return new SequentialTest(alpha, Math.min(1, baseRate * Math.abs(minimumDetectableLift)));
  }

  public double alpha() {
    return alpha;
  }

  /** The first look of an experiment: nothing was seen before. */
  public Look look(Proportion control, Proportion variant) {
    return look(control, variant, 1.0);
  }

  /**
   * Looks at the counts so far. {@code previousP} is the p-value of the previous look (1 at the first): the
   * always-valid p-value never goes up.
   */
  public Look look(Proportion control, Proportion variant, double previousP) {
    if (!(previousP >= 0 && previousP <= 1)) {
      throw new IllegalArgumentException("previousP must be within [0, 1] but was " + previousP);
    }
    double difference = variant.rate() - control.rate();
    if (control.trials() == 0 || variant.trials() == 0) {
      return new Look(previousP, Decision.CONTINUE, difference, new Interval(-1, 1));
    }
    double variance = variance(control) + variance(variant);
    double logLikelihoodRatio = 0.5 * Math.log(variance / (variance + tauSquared))
        + tauSquared * difference * difference / (2 * variance * (variance + tauSquared));
    double pValue = Math.min(previousP, Math.min(1, Math.exp(-logLikelihoodRatio)));
    double halfWidth = Math.sqrt(variance
        * (variance + tauSquared)
        / tauSquared
        * (Math.log((variance + tauSquared) / variance) - 2 * Math.log(alpha)));
    var interval =
        new Interval(Math.max(-1, difference - halfWidth), Math.min(1, difference + halfWidth));
    return new Look(pValue, decide(pValue, difference), difference, interval);
  }

  /** Like {@link #look(Proportion, Proportion, double)}, and intersects the confidence sequence with the last. */
  public Look look(Proportion control, Proportion variant, Look previous) {
    Look now = look(control, variant, previous.pValue());
    return new Look(
        now.pValue(),
        now.decision(),
        now.difference(),
        now.interval().intersect(previous.interval()));
  }

  private Decision decide(double pValue, double difference) {
    if (pValue > alpha) return Decision.CONTINUE;
    return difference > 0 ? Decision.VARIANT_BETTER : Decision.CONTROL_BETTER;
  }

  /**
   * The plug-in Bernoulli variance over n, with half a success and half a failure added so that an arm with
   * no conversions yet (the usual start) does not claim zero uncertainty.
   */
  private static double variance(Proportion p) {
    double n = p.trials() + 1;
    double rate = (p.successes() + 0.5) / n;
    return rate * (1 - rate) / n;
  }

  /** What the counts so far allow. */
  public enum Decision {
    CONTINUE,
    VARIANT_BETTER,
    CONTROL_BETTER
  }

  /**
   * One look: the always-valid {@code pValue}, the {@code decision} at the test's alpha, the observed
   * {@code difference} (variant - control) and a confidence sequence {@code interval} for it, valid at
   * 1 - alpha simultaneously over all looks.
   */
  public record Look(double pValue, Decision decision, double difference, Interval interval) {}
}

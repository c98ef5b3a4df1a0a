package dev.tidings.optimize.stats;

import org.apache.commons.statistics.distribution.NormalDistribution;

/** Confidence intervals for a rate and for the difference of two rates. */
public final class Intervals {
  static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

  private Intervals() {}

  /** The two-sided critical value of the standard normal: 1.959964 for 0.95. */
  public static double criticalValue(double confidence) {
    requireConfidence(confidence);
    return STANDARD_NORMAL.inverseCumulativeProbability(0.5 + confidence / 2);
  }

  /**
   * Wilson's score interval (1927). Unlike the textbook Wald interval it stays inside [0, 1] and keeps its
   * coverage for rates near 0, which is where conversion rates live. With no trials it is all of [0, 1].
   */
  public static Interval wilson(Proportion p, double confidence) {
    double z = criticalValue(confidence);
    if (p.trials() == 0) return new Interval(0, 1);
    double n = p.trials();
    double rate = p.rate();
    double z2 = z * z;
    double denominator = 1 + z2 / n;
    double centre = (rate + z2 / (2 * n)) / denominator;
    double half = z / denominator * Math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n));
    // At 0 of n and n of n the bound is exactly 0 or 1; the formula leaves rounding dust there.
    double low = p.successes() == 0 ? 0 : Math.max(0, centre - half);
    double high = p.failures() == 0 ? 1 : Math.min(1, centre + half);
    return new Interval(low, high);
  }

  /**
   * Newcombe's hybrid score interval (1998, method 10) for {@code b.rate() - a.rate()}, built from the two
   * Wilson intervals; good coverage with small counts and rare events, where the Wald difference fails.
   */
  public static Interval newcombe(Proportion a, Proportion b, double confidence) {
    Interval wilsonA = wilson(a, confidence);
    Interval wilsonB = wilson(b, confidence);
    double rateA = a.rate();
    double rateB = b.rate();
    double difference = rateB - rateA;
    double low = difference - Math.hypot(rateB - wilsonB.low(), wilsonA.high() - rateA);
    double high = difference + Math.hypot(wilsonB.high() - rateB, rateA - wilsonA.low());
    return new Interval(Math.max(-1, low), Math.min(1, high));
  }

  static void requireConfidence(double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be within (0, 1) but was " + confidence);
    }
  }
}

package dev.tidings.optimize.stats;

import java.util.SplittableRandom;

/** Conversions drawn for simulated catalogues in the optimiser's tests. */
public final class BinomialDraws {
  /** Below this expected count the exact draw is cheap; above it the normal approximation is close. */
  private static final double EXACT_BELOW_MEAN = 50;

  private BinomialDraws() {}

  /** A binomial draw, exact: successes counted by the geometric gaps between them. */
  public static Proportion exact(long trials, double rate, SplittableRandom random) {
    double logFailure = Math.log1p(-rate);
    long successes = 0;
    long position = 0;
    while (true) {
      position += (long) Math.floor(Math.log(1 - random.nextDouble()) / logFailure) + 1;
      if (position > trials) return Proportion.of(successes, trials);
      successes++;
    }
  }

  /** Exact when few successes are expected, the normal approximation when many are. */
  public static Proportion draw(long trials, double rate, SplittableRandom random) {
    double mean = trials * rate;
    if (mean < EXACT_BELOW_MEAN) return exact(trials, rate, random);
    long drawn = Math.round(mean + Math.sqrt(mean * (1 - rate)) * random.nextGaussian());
    return Proportion.of(Math.clamp(drawn, 0, trials), trials);
  }
}

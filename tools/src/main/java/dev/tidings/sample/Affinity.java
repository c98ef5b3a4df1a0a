package dev.tidings.sample;

import java.util.SplittableRandom;

/**
 * What one subscriber likes, derived from (seed, subscriber) alone so follows and events agree:
 * a favourite brand (by popularity rank) or two, and how active they are.
 */
record Affinity(int favouriteBrand, int secondBrand, double activity) {
  static Affinity of(long seed, long subscriber, int brands) {
    SplittableRandom random = Rng.of(seed, Rng.AFFINITY, subscriber);
    int favourite = Rng.zipf(random, brands);
    int second = Rng.zipf(random, brands);
    // Log-normal activity with mean 1: most people browse a little, a few a lot.
    double sigma = 0.8;
    double activity = Math.exp(sigma * gaussian(random) - sigma * sigma / 2);
    return new Affinity(favourite, second, Math.min(activity, 10));
  }

  private static double gaussian(SplittableRandom random) {
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

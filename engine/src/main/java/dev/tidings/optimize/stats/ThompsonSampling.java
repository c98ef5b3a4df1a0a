package dev.tidings.optimize.stats;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Thompson sampling (1933): send the next recipient to the arm whose rate, drawn from its posterior, is
 * highest. Each arm gets traffic in proportion to the chance it is best, so losing arms fade out while the
 * uncertain ones keep being explored.
 */
public final class ThompsonSampling {
  private ThompsonSampling() {}

  public static int choose(List<Proportion> arms, RandomGenerator random) {
    if (arms.isEmpty())
      throw new IllegalArgumentException("Thompson sampling needs at least one arm");
    var samplers = Posteriors.samplers(arms, random);
    var sample = new double[arms.size()];
    for (int arm = 0; arm < sample.length; arm++) sample[arm] = samplers[arm].sample();
    return Posteriors.argmax(sample);
  }
}

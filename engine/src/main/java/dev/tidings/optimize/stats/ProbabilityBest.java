package dev.tidings.optimize.stats;

import java.util.List;
import java.util.random.RandomGenerator;

/** The posterior probability that each arm has the highest rate, by Monte Carlo over Beta posteriors. */
public final class ProbabilityBest {
  private ProbabilityBest() {}

  /** One probability per arm, summing to 1; the error of each is about sqrt(p(1-p)/draws). */
  public static double[] of(List<Proportion> arms, int draws, RandomGenerator random) {
    if (arms.isEmpty())
      throw new IllegalArgumentException("probability of being best needs at least one arm");
    if (draws <= 0) throw new IllegalArgumentException("draws must be positive but was " + draws);
    var samplers = Posteriors.samplers(arms, random);
    var sample = new double[arms.size()];
    var wins = new long[arms.size()];
    for (int draw = 0; draw < draws; draw++) {
      for (int arm = 0; arm < sample.length; arm++) sample[arm] = samplers[arm].sample();
      wins[Posteriors.argmax(sample)]++;
    }
    var probabilities = new double[arms.size()];
    for (int arm = 0; arm < probabilities.length; arm++)
      probabilities[arm] = (double) wins[arm] / draws;
    return probabilities;
  }
}

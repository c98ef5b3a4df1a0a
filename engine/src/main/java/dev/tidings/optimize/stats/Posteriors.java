package dev.tidings.optimize.stats;

import java.util.List;
import java.util.random.RandomGenerator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ContinuousDistribution;

/** Beta(1 + successes, 1 + failures): the posterior of a rate under a uniform prior. */
public final class Posteriors {
  private Posteriors() {}

  public static BetaDistribution of(Proportion p) {
    return BetaDistribution.of(1.0 + p.successes(), 1.0 + p.failures());
  }

  /** The central credible interval of the posterior. */
  public static Interval credibleInterval(Proportion p, double confidence) {
    Intervals.requireConfidence(confidence);
    BetaDistribution beta = of(p);
    double tail = (1 - confidence) / 2;
    return new Interval(
        beta.inverseCumulativeProbability(tail), beta.inverseSurvivalProbability(tail));
  }

  static ContinuousDistribution.Sampler[] samplers(List<Proportion> arms, RandomGenerator random) {
    UniformRandomProvider source = random::nextLong;
    var samplers = new ContinuousDistribution.Sampler[arms.size()];
    for (int i = 0; i < samplers.length; i++) samplers[i] = of(arms.get(i)).createSampler(source);
    return samplers;
  }

  static int argmax(double[] values) {
    int best = 0;
    for (int i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
    return best;
  }
}

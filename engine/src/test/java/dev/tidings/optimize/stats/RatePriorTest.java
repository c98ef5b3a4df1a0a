package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

class RatePriorTest {
  @Test
  void the_moments_recover_a_known_beta_through_the_binomial_noise() {
    // Rates from Beta(6, 94) (mean 6%, sd 2.4%), each seen through 300 to 5,000 impressions: the
    // raw rates spread wider than the Beta, the fit must take that noise out.
    var random = new SplittableRandom(21);
    var sampler = BetaDistribution.of(6, 94).createSampler(random::nextLong);
    var moments = new RatePrior.Moments();
    for (int i = 0; i < 50_000; i++) {
      long impressions = 300 + random.nextInt(4_700);
      moments.add(BinomialDraws.exact(impressions, sampler.sample(), random));
    }
    var fitted = moments.fit();
    assertThat(fitted.a()).isCloseTo(6, within(0.6));
    assertThat(fitted.b()).isCloseTo(94, within(9.4));
  }

  @Test
  void too_few_items_leave_the_prior_flat() {
    var moments = new RatePrior.Moments();
    for (int i = 0; i < 10; i++) moments.add(Proportion.of(5, 100));
    assertThat(moments.fit()).isEqualTo(RatePrior.flat());
  }

  @Test
  void the_laplace_ratio_agrees_with_the_integral_worked_numerically() {
    var prior = new RatePrior(6, 94);
    // Current 80 of 1,000 and challengers 30 of 500 and 55 of 500: is the second 1.5x the rest?
    long[] conversions = {80, 30, 55};
    long[] impressions = {1_000, 500, 500};
    for (double logLift : new double[] {0, Math.log(1.5), Math.log(0.6), 0.9}) {
      double numeric = Math.log(integral(prior, conversions, impressions, 2, Math.exp(logLift)))
          - Math.log(integral(prior, conversions, impressions, 2, 1));
      double laplace = prior.logRatio(55, 500, 165, 2_000, logLift);
      assertThat(laplace).as("log lift %.2f", logLift).isCloseTo(numeric, within(0.02));
    }
  }

  /** The likelihood of the counts, arm {@code lifted} at {@code lift} times the rate, over the prior. */
  private static double integral(
      RatePrior prior, long[] conversions, long[] impressions, int lifted, double lift) {
    var beta = BetaDistribution.of(prior.a(), prior.b());
    int steps = 200_000;
    double upper = Math.min(1, 1 / lift);
    double sum = 0;
    for (int i = 1; i < steps; i++) {
      double rate = upper * i / steps;
      double log = beta.logDensity(rate);
      for (int arm = 0; arm < conversions.length; arm++)
        log += BinomialDistribution.of(
                Math.toIntExact(impressions[arm]), arm == lifted ? rate * lift : rate)
            .logProbability(Math.toIntExact(conversions[arm]));
      sum += Math.exp(log);
    }
    return sum * upper / steps;
  }
}

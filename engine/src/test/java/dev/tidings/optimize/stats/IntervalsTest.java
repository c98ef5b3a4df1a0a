package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tidings.InvalidInputException;
import org.junit.jupiter.api.Test;

class IntervalsTest {
  @Test
  void critical_values_match_the_normal_table() {
    // Standard normal quantiles, e.g. Abramowitz and Stegun, Table 26.5: z_0.975, z_0.95, z_0.995.
    assertThat(Intervals.criticalValue(0.95)).isCloseTo(1.959964, within(1e-6));
    assertThat(Intervals.criticalValue(0.90)).isCloseTo(1.644854, within(1e-6));
    assertThat(Intervals.criticalValue(0.99)).isCloseTo(2.575829, within(1e-6));
  }

  @Test
  void wilson_interval_matches_newcombe_1998_table() {
    // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat Med 17:857,
    // Table I: 81/263, score method (Wilson) 0.2553 to 0.3662; 15/148 gives 0.0624 to 0.1605.
    var interval = Intervals.wilson(Proportion.of(81, 263), 0.95);
    assertThat(interval.low()).isCloseTo(0.2553, within(5e-5));
    assertThat(interval.high()).isCloseTo(0.3662, within(5e-5));
    var second = Intervals.wilson(Proportion.of(15, 148), 0.95);
    assertThat(second.low()).isCloseTo(0.0624, within(5e-5));
    assertThat(second.high()).isCloseTo(0.1605, within(5e-5));
  }

  @Test
  void wilson_interval_stays_inside_zero_and_one_at_the_edges() {
    var none = Intervals.wilson(Proportion.of(0, 10), 0.95);
    assertThat(none.low()).isZero();
    // Newcombe (1998) Table I: 0/10, score method 0 to 0.2775.
    assertThat(none.high()).isCloseTo(0.2775, within(5e-5));
    var all = Intervals.wilson(Proportion.of(10, 10), 0.95);
    assertThat(all.high()).isEqualTo(1.0);
    assertThat(Intervals.wilson(Proportion.of(0, 0), 0.95)).isEqualTo(new Interval(0, 1));
  }

  @Test
  void newcombe_difference_interval_matches_the_published_example() {
    // Newcombe (1998), "Interval estimation for the difference between independent proportions",
    // Stat Med 17:873, Table II example (a): 56/70 - 48/80 = 0.2000, method 10 (score, no
    // correction) 0.0524 to 0.3339.
    var interval = Intervals.newcombe(Proportion.of(48, 80), Proportion.of(56, 70), 0.95);
    assertThat(interval.low()).isCloseTo(0.0524, within(5e-5));
    assertThat(interval.high()).isCloseTo(0.3339, within(5e-5));
    // Swapping the arms mirrors it.
    var mirrored = Intervals.newcombe(Proportion.of(56, 70), Proportion.of(48, 80), 0.95);
    assertThat(mirrored.low()).isCloseTo(-interval.high(), within(1e-12));
    assertThat(mirrored.high()).isCloseTo(-interval.low(), within(1e-12));
  }

  @Test
  void beta_posterior_quantiles_match_closed_forms() {
    // Beta(1, n + 1), the posterior after 0 of n, has CDF 1 - (1 - x)^(n + 1): its 97.5% quantile
    // is 1 - 0.025^(1 / (n + 1)); for n = 10 that is 0.284914 (R: qbeta(0.975, 1, 11)).
    var noConversions = Posteriors.credibleInterval(Proportion.of(0, 10), 0.95);
    assertThat(noConversions.high()).isCloseTo(0.284914, within(1e-6));
    assertThat(noConversions.low()).isCloseTo(1 - Math.pow(0.975, 1.0 / 11), within(1e-9));
    // Beta(n + 1, 1) after n of n has CDF x^(n + 1): quantile q^(1 / (n + 1)).
    var allConverted = Posteriors.credibleInterval(Proportion.of(4, 4), 0.90);
    assertThat(allConverted.low()).isCloseTo(Math.pow(0.05, 1.0 / 5), within(1e-9));
    // Beta(2, 2), one of two, has CDF 3x^2 - 2x^3; its median is 1/2 and its 5% quantile 0.135350
    // (R: qbeta(0.05, 2, 2)).
    var oneOfTwo = Posteriors.credibleInterval(Proportion.of(1, 2), 0.90);
    assertThat(oneOfTwo.low()).isCloseTo(0.135350, within(1e-6));
    assertThat(3 * Math.pow(oneOfTwo.low(), 2) - 2 * Math.pow(oneOfTwo.low(), 3))
        .isCloseTo(0.05, within(1e-9));
  }

  @Test
  void a_proportion_refuses_more_successes_than_trials() {
    assertThatThrownBy(() -> Proportion.of(11, 10))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("11 of 10");
    assertThatThrownBy(() -> Proportion.of(-1, 10)).isInstanceOf(InvalidInputException.class);
    assertThat(Proportion.of(0, 0).rate()).isZero();
  }
}

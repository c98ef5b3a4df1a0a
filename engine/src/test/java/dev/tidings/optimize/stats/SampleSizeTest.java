package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

class SampleSizeTest {
  @Test
  void per_arm_size_follows_the_fleiss_formula() {
    // 10% against 12% (a 20% lift), two-sided alpha 0.05, power 0.8, by hand: mean rate 0.11,
    // (1.959964 * sqrt(2 * 0.11 * 0.89) + 0.841621 * sqrt(0.09 + 0.1056))^2 / 0.02^2
    // = 3,840.3 -> 3,841.
    assertThat(SampleSize.perArm(0.10, 0.20, 0.05, 0.80)).isEqualTo(3_841);
    // Halving the lift roughly quadruples the size.
    assertThat(SampleSize.perArm(0.10, 0.10, 0.05, 0.80))
        .isBetween(4 * 3_841 - 1_000L, 4 * 3_841 + 1_000L);
  }

  @Test
  void simulated_power_at_the_planned_size_is_the_power_asked_for() {
    long perArm = SampleSize.perArm(0.10, 0.20, 0.05, 0.80);
    double power = simulatedPower(perArm, 0.10, 0.12, 2_000, 7);
    System.out.printf("power at %d per arm for 10%% against 12%%: %.4f%n", perArm, power);
    // 2,000 runs give a standard error of about 0.009 around 0.8.
    assertThat(power).isBetween(0.76, 0.84);
    assertThat(simulatedPower(perArm / 4, 0.10, 0.12, 2_000, 8)).isBetween(0.20, 0.40);
  }

  @Test
  void refuses_a_lift_that_leaves_the_unit_interval() {
    assertThatThrownBy(() -> SampleSize.perArm(0.6, 1.0, 0.05, 0.8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("within (0, 1)");
  }

  private static double simulatedPower(
      long perArm, double controlRate, double variantRate, int runs, long seed) {
    var random = new SplittableRandom(seed);
    UniformRandomProvider source = random::nextLong;
    int n = Math.toIntExact(perArm);
    var control = BinomialDistribution.of(n, controlRate).createSampler(source);
    var variant = BinomialDistribution.of(n, variantRate).createSampler(source);
    int rejected = 0;
    for (int run = 0; run < runs; run++) {
      var result = TwoProportionTest.zTest(
          Proportion.of(control.sample(), n), Proportion.of(variant.sample(), n));
      if (result.pValue() <= 0.05) rejected++;
    }
    return (double) rejected / runs;
  }
}

package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TwoProportionTestTest {
  @Test
  void z_test_matches_agrestis_aspirin_example() {
    // Agresti, An Introduction to Categorical Data Analysis (2nd ed.), Physicians' Health Study:
    // myocardial infarction in 189 of 11,034 on placebo and 104 of 11,037 on aspirin; Pearson X^2 =
    // 25.01 (df 1), and for a 2x2 table the pooled z-statistic is its square root. Difference
    // 0.0077, Wald CI (0.005, 0.011).
    var placebo = Proportion.of(189, 11_034);
    var aspirin = Proportion.of(104, 11_037);
    var result = TwoProportionTest.zTest(placebo, aspirin);
    assertThat(result.statistic() * result.statistic()).isCloseTo(25.01, within(0.005));
    assertThat(result.statistic()).isNegative();
    assertThat(result.pValue()).isLessThan(1e-6);
    assertThat(result.difference()).isCloseTo(-0.0077, within(5e-5));
    assertThat(result.differenceInterval().low()).isCloseTo(-0.011, within(0.001));
    assertThat(result.differenceInterval().high()).isCloseTo(-0.005, within(0.001));
    assertThat(result.relativeLift()).isCloseTo(-0.0077 / 0.0171, within(0.01));
    assertThat(result.method()).isEqualTo(TestMethod.Z_TEST);
  }

  @Test
  void z_test_matches_a_textbook_survey_example() {
    // Stat Trek, "Hypothesis test: difference between proportions": 38% of 100 men and 51% of 200
    // women; pooled p = 0.467, SE = 0.0611, z = -2.13, two-sided P = 0.033.
    var result = TwoProportionTest.zTest(Proportion.of(38, 100), Proportion.of(102, 200));
    assertThat(result.statistic()).isCloseTo(0.13 / 0.0611, within(0.005));
    assertThat(result.pValue()).isCloseTo(0.033, within(0.001));
  }

  @Test
  void fisher_exact_test_matches_the_lady_tasting_tea() {
    // Fisher's tea-tasting experiment as in Agresti, Categorical Data Analysis, section 3.5.1: of
    // the four cups with milk first she named three, and one of the four others; two-sided P =
    // 0.4857 (one-sided 0.243).
    var result = TwoProportionTest.fisherExact(Proportion.of(3, 4), Proportion.of(1, 4));
    assertThat(result.pValue()).isCloseTo(0.4857, within(5e-5));
    assertThat(result.method()).isEqualTo(TestMethod.FISHER_EXACT);
  }

  @Test
  void fisher_exact_test_matches_the_dieting_example() {
    // Wikipedia, "Fisher's exact test": 1 of 12 men and 9 of 12 women dieting;
    // two-sided p = 0.002759.
    var result = TwoProportionTest.fisherExact(Proportion.of(1, 12), Proportion.of(9, 12));
    assertThat(result.pValue()).isCloseTo(0.002759, within(1e-6));
  }

  @Test
  void compare_uses_the_exact_test_only_for_small_expected_counts() {
    assertThat(
            TwoProportionTest.compare(Proportion.of(3, 4), Proportion.of(1, 4)).method())
        .isEqualTo(TestMethod.FISHER_EXACT);
    // 2 conversions in 2,000 impressions:
    // an expected 1 conversion per arm is too few for the normal curve.
    assertThat(TwoProportionTest.compare(Proportion.of(0, 1_000), Proportion.of(2, 1_000))
            .method())
        .isEqualTo(TestMethod.FISHER_EXACT);
    assertThat(TwoProportionTest.compare(Proportion.of(189, 11_034), Proportion.of(104, 11_037))
            .method())
        .isEqualTo(TestMethod.Z_TEST);
  }

  @Test
  void identical_or_empty_arms_show_no_difference() {
    assertThat(TwoProportionTest.zTest(Proportion.of(0, 100), Proportion.of(0, 100))
            .pValue())
        .isEqualTo(1.0);
    assertThat(
            TwoProportionTest.compare(Proportion.of(0, 0), Proportion.of(0, 0)).pValue())
        .isEqualTo(1.0);
    assertThat(TwoProportionTest.fisherExact(Proportion.of(5, 10), Proportion.of(5, 10))
            .pValue())
        .isCloseTo(1.0, within(1e-12));
    assertThat(TwoProportionTest.zTest(Proportion.of(0, 100), Proportion.of(5, 100))
            .relativeLift())
        .isNaN();
  }

  @Test
  void exact_and_normal_approximation_agree_on_large_counts() {
    var control = Proportion.of(300, 3_000);
    var variant = Proportion.of(360, 3_000);
    double z = TwoProportionTest.zTest(control, variant).pValue();
    double exact = TwoProportionTest.fisherExact(control, variant).pValue();
    assertThat(exact).isCloseTo(z, within(0.01));
  }
}

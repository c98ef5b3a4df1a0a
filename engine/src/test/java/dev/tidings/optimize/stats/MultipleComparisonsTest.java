package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class MultipleComparisonsTest {
  @Test
  void holm_rejects_in_steps_where_bonferroni_stops() {
    // Holm (1979) step-down at alpha 0.05 with m = 4: the sorted p-values 0.01, 0.015, 0.03, 0.04
    // meet 0.0125, 0.0167, 0.025, 0.05 until 0.03 > 0.025, so the first two are rejected.
    // Bonferroni's 0.0125 rejects only the first.
    double[] pValues = {0.04, 0.01, 0.03, 0.015};
    assertThat(MultipleComparisons.holm(pValues, 0.05)).containsExactly(false, true, false, true);
    assertThat(MultipleComparisons.bonferroni(pValues, 0.05))
        .containsExactly(false, true, false, false);
  }

  @Test
  void holm_stops_at_the_first_failure_even_if_a_later_p_value_would_pass() {
    // m = 3: 0.02 > 0.05/3 fails,
    // so 0.03 and 0.04 are kept although each is below its own threshold.
    assertThat(MultipleComparisons.holm(new double[] {0.03, 0.02, 0.04}, 0.05))
        .containsExactly(false, false, false);
    assertThat(MultipleComparisons.holm(new double[] {0.001, 0.02, 0.04}, 0.05))
        .containsExactly(true, true, true);
  }

  @Test
  void holm_adjusted_p_values_agree_with_holm_rejections() {
    double[] pValues = {0.04, 0.01, 0.03, 0.015};
    // By hand: sorted 0.01, 0.015, 0.03, 0.04 times 4, 3, 2, 1
    // = 0.04, 0.045, 0.06, 0.04, then running max.
    assertThat(MultipleComparisons.holmAdjusted(pValues))
        .containsExactly(new double[] {0.06, 0.04, 0.06, 0.045}, Assertions.within(1e-12));
    for (double alpha : new double[] {0.01, 0.04, 0.05, 0.1}) {
      boolean[] rejected = MultipleComparisons.holm(pValues, alpha);
      double[] adjusted = MultipleComparisons.holmAdjusted(pValues);
      for (int i = 0; i < pValues.length; i++)
        assertThat(adjusted[i] <= alpha).isEqualTo(rejected[i]);
    }
  }

  @Test
  void benjamini_hochberg_matches_the_papers_example() {
    // Benjamini and Hochberg (1995), JRSS B 57:289, section 4: 15 p-values from a trial; at q =
    // 0.05 the procedure rejects the four smallest (0.0095 <= 4 x 0.05 / 15 = 0.0133, and no larger
    // p_(k) meets k x 0.05 / 15), where Bonferroni (0.05 / 15 = 0.0033) rejects three.
    double[] pValues = {
      0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
      0.5719, 0.6528, 0.7590, 1.000
    };
    boolean[] rejected = MultipleComparisons.benjaminiHochberg(pValues, 0.05);
    for (int i = 0; i < pValues.length; i++) assertThat(rejected[i]).isEqualTo(i < 4);
    boolean[] bonferroni = MultipleComparisons.bonferroni(pValues, 0.05);
    for (int i = 0; i < pValues.length; i++) assertThat(bonferroni[i]).isEqualTo(i < 3);
    // Only the p-values at or below q are needed, with the count of all hypotheses.
    assertThat(MultipleComparisons.benjaminiHochbergCutoff(
            new double[] {0.0095, 0.0001, 0.0459, 0.0004, 0.0019, 0.0201, 0.0278, 0.0298, 0.0344},
            15,
            0.05))
        .isEqualTo(0.0095);
  }

  @Test
  void no_hypotheses_reject_nothing() {
    assertThat(MultipleComparisons.holm(new double[0], 0.05)).isEmpty();
  }
}

package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MultipleComparisonsTest {
  @Test
  void holm_rejects_in_steps_where_bonferroni_stops() {
    // Holm (1979) step-down at alpha 0.05 with m = 4: the sorted p-values 0.01, 0.015, 0.03, 0.04
    // meet
    // 0.0125, 0.0167, 0.025, 0.05 until 0.03 > 0.025, so the first two are rejected. Bonferroni's
    // 0.0125
    // rejects only the first.
    double[] pValues = {0.04, 0.01, 0.03, 0.015};
    assertThat(MultipleComparisons.holm(pValues, 0.05)).containsExactly(false, true, false, true);
    assertThat(MultipleComparisons.bonferroni(pValues, 0.05))
        .containsExactly(false, true, false, false);
  }

  @Test
  void holm_stops_at_the_first_failure_even_if_a_later_p_value_would_pass() {
    // m = 3: 0.02 > 0.05/3 fails, so 0.03 and 0.04 are kept although each is below its own
    // threshold.
    assertThat(MultipleComparisons.holm(new double[] {0.03, 0.02, 0.04}, 0.05))
        .containsExactly(false, false, false);
    assertThat(MultipleComparisons.holm(new double[] {0.001, 0.02, 0.04}, 0.05))
        .containsExactly(true, true, true);
  }

  @Test
  void no_hypotheses_reject_nothing() {
    assertThat(MultipleComparisons.holm(new double[0], 0.05)).isEmpty();
  }
}

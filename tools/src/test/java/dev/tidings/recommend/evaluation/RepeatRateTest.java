package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RepeatRateTest {
  @Test
  void a_restocker_scores_above_one_an_explorer_below_and_a_one_basket_user_exactly_one() {
    Interactions rows = Tiny.rows()
        .buy("restocker", "r1", 1, "soap")
        .buy("restocker", "r2", 2, "soap")
        .buy("restocker", "r3", 3, "soap")
        .buy("explorer", "e1", 1, "a")
        .buy("explorer", "e2", 2, "b")
        .buy("explorer", "e3", 3, "c")
        .buy("once", "o1", 1, "a", "b")
        .build();
    double[] scale = RepeatRate.relativeToEverybody(rows);
    // overall: 2 repeats of 4 later items = 0.5; restocker (2 + 10 * 0.5) / (2 + 10) / 0.5
    assertThat(scale[Tiny.userIndex(rows, "restocker")]).isCloseTo(7.0 / 12 / 0.5, within(1e-12));
    assertThat(scale[Tiny.userIndex(rows, "explorer")]).isCloseTo(5.0 / 12 / 0.5, within(1e-12));
    assertThat(scale[Tiny.userIndex(rows, "once")]).isCloseTo(1, within(1e-12));
  }
}

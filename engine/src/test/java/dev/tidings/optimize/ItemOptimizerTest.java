package dev.tidings.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.TestMethod;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class ItemOptimizerTest {
  private final ItemOptimizer optimizer = new ItemOptimizer(OptimizationCriteria.defaults());

  @Test
  void a_significantly_better_challenger_replaces_the_current_configuration() {
    var change = optimizer.decide(
        "boots",
        List.of(
            arm("photo", true, 200, 4_000),
            arm("video", false, 300, 4_000),
            arm("sketch", false, 190, 4_000)));
    assertThat(change).isPresent();
    assertThat(change.get().bestConfigurationId()).isEqualTo("video");
    assertThat(change.get().currentConfigurationId()).isEqualTo("photo");
    assertThat(change.get().result().difference()).isCloseTo(0.025, Assertions.within(1e-12));
    assertThat(change.get().result().differenceInterval().low()).isPositive();
    assertThat(change.get().result().method()).isEqualTo(TestMethod.Z_TEST);
    assertThat(change.get().challengers()).isEqualTo(2);
  }

  @Test
  void a_better_but_not_significant_challenger_leaves_the_item_alone() {
    assertThat(optimizer.decide(
            "boots", List.of(arm("photo", true, 20, 400), arm("video", false, 26, 400))))
        .isEmpty();
  }

  @Test
  void holm_correction_can_keep_a_challenger_that_alone_would_win() {
    // Alone, 61 of 1,000 against 40 of 1,000 has p ~ 0.033 < 0.05 and would win. Among three
    // challengers Holm asks the smallest p for 0.05 / 3 and it is no longer enough.
    var alone =
        optimizer.decide("scarf", List.of(arm("a", true, 40, 1_000), arm("b", false, 61, 1_000)));
    assertThat(alone).isPresent();
    assertThat(alone.get().result().pValue()).isBetween(0.0167, 0.05);
    var among = optimizer.decide(
        "scarf",
        List.of(
            arm("a", true, 40, 1_000),
            arm("b", false, 61, 1_000),
            arm("c", false, 41, 1_000),
            arm("d", false, 39, 1_000)));
    assertThat(among).isEmpty();
  }

  @Test
  void a_significantly_worse_challenger_is_never_a_winner() {
    assertThat(optimizer.decide(
            "hat", List.of(arm("photo", true, 300, 4_000), arm("video", false, 100, 4_000))))
        .isEmpty();
  }

  @Test
  void arms_below_the_minimum_impressions_are_not_tested() {
    assertThat(optimizer.decide(
            "hat", List.of(arm("photo", true, 0, 99), arm("video", false, 60, 99))))
        .isEmpty();
    var change = new ItemOptimizer(
            new OptimizationCriteria(0.05, 50, OptimizationCriteria.Correction.ITEM))
        .decide("hat", List.of(arm("photo", true, 0, 99), arm("video", false, 60, 99)));
    assertThat(change).isPresent();
  }

  @Test
  void small_counts_are_decided_by_the_exact_test() {
    var change =
        optimizer.decide("ring", List.of(arm("photo", true, 0, 150), arm("video", false, 9, 150)));
    assertThat(change).isPresent();
    assertThat(change.get().result().method()).isEqualTo(TestMethod.FISHER_EXACT);
  }

  private static Arm arm(String id, boolean current, long conversions, long impressions) {
    return new Arm(id, current, Proportion.of(conversions, impressions));
  }
}

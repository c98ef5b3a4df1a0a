package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HoldoutSplitTest {
  @Test
  void each_users_last_basket_is_held_out_and_single_basket_users_only_train() {
    Interactions rows = Tiny.rows()
        .buy("ann", "a1", 1, "x", "y")
        .buy("ann", "a2", 5, "y", "z")
        .buy("bob", "b1", 3, "x")
        .buy("cat", "c2", 9, "z")
        .buy("cat", "c1", 2, "x", "w")
        .build();
    var split = HoldoutSplit.of(rows);

    assertThat(split.holdouts()).hasSize(2);
    var ann = split.holdouts().get(0);
    assertThat(rows.userId(ann.user())).isEqualTo("ann");
    assertThat(ann.items()).containsExactly(Tiny.items(rows, "y", "z"));
    var cat = split.holdouts().get(1);
    assertThat(rows.userId(cat.user())).isEqualTo("cat");
    assertThat(cat.items()).containsExactly(Tiny.itemIndex(rows, "z"));
    // ann's first basket, bob's only basket, cat's first basket
    assertThat(split.training().size()).isEqualTo(5);
    for (int row = 0; row < split.training().size(); row++) {
      assertThat(split.training().epochSecond(row)).isLessThanOrEqualTo(3 * Tiny.DAY);
    }
  }

  @Test
  void the_validation_split_is_carved_out_of_training_only() {
    Interactions rows = Tiny.rows()
        .buy("ann", "a1", 1, "x")
        .buy("ann", "a2", 2, "y")
        .buy("ann", "a3", 3, "z")
        .build();
    var test = HoldoutSplit.of(rows);
    var validation = HoldoutSplit.of(test.training());
    assertThat(test.holdouts().getFirst().items()).containsExactly(Tiny.itemIndex(rows, "z"));
    assertThat(validation.holdouts().getFirst().items()).containsExactly(Tiny.itemIndex(rows, "y"));
    assertThat(validation.training().size()).isEqualTo(1);
  }
}

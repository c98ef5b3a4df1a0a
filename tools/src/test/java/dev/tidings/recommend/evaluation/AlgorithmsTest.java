package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tidings.recommend.blend.SymmetricInverse;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlgorithmsTest {
  @Test
  void buy_again_ranks_the_most_repeated_item_first_and_scores_nothing_else() {
    Interactions rows = Tiny.rows()
        .buy("ann", "a1", 10, "soap", "tea")
        .buy("ann", "a2", 11, "soap")
        .buy("ann", "a3", 12, "soap", "tea", "jam")
        .buy("bob", "b1", 12, "bread")
        .build();
    int[] top = Tiny.top(new BuyAgain(90).fit(rows), rows, "ann", 10);
    assertThat(top).containsExactly(Tiny.items(rows, "soap", "tea", "jam"));
  }

  @Test
  void buy_again_prefers_a_recent_purchase_to_an_old_one_bought_as_often() {
    Interactions rows =
        Tiny.rows().buy("ann", "a1", 0, "old").buy("ann", "a2", 300, "new").build();
    int[] top = Tiny.top(new BuyAgain(30).fit(rows), rows, "ann", 2);
    assertThat(top).containsExactly(Tiny.items(rows, "new", "old"));
  }

  @Test
  void popularity_counts_baskets_and_lets_old_ones_fade() {
    Interactions rows = Tiny.rows()
        .buy("ann", "a1", 0, "old")
        .buy("bob", "b1", 0, "old")
        .buy("cat", "c1", 360, "new")
        .buy("dan", "d1", 360, "rare")
        .buy("dan", "d2", 360, "new")
        .build();
    int[] fresh = Tiny.top(new Popularity(30).fit(rows), rows, "ann", 3);
    assertThat(fresh[0]).isEqualTo(Tiny.itemIndex(rows, "new"));
    int[] forever = Tiny.top(new Popularity(1e9).fit(rows), rows, "ann", 3);
    assertThat(forever[0]).isIn(Tiny.itemIndex(rows, "old"), Tiny.itemIndex(rows, "new"));
  }

  @Test
  void itemknn_recommends_what_others_bought_with_the_users_items() {
    Interactions rows = Tiny.rows()
        .buy("ann", "a1", 1, "pen", "ink")
        .buy("bob", "b1", 1, "pen", "ink")
        .buy("cat", "c1", 1, "pen", "paper")
        .buy("dan", "d1", 1, "pen")
        .build();
    int[] top = Tiny.top(new ItemKnn(50).fit(rows), rows, "dan", 1);
    // ink: 2 co-buyers of 2, paper: 1 of 1; cosine(pen, ink) = 2/sqrt(4*2) > cosine(pen, paper) =
    // 1/sqrt(4)
    assertThat(top).containsExactly(Tiny.itemIndex(rows, "ink"));
  }

  @Test
  void ease_weights_are_the_closed_form_worked_by_hand() {
    // G + lambda I = [[4, 2, 0], [2, 3, 0], [0, 0, 2]]; its inverse P is [[3/8, -1/4, 0],
    // [-1/4, 1/2, 0], [0, 0, 1/2]] (the 2x2 block has determinant 8), and B_ij = -P_ij / P_jj
    double[][] gramPlusLambda = {{3 + 1, 2, 0}, {2, 2 + 1, 0}, {0, 0, 1 + 1}};
    double[][] b = Ease.weights(gramPlusLambda);
    assertThat(b[0][1]).isCloseTo(0.5, within(1e-12)); // 1/4 / (1/2)
    assertThat(b[1][0]).isCloseTo(2.0 / 3, within(1e-12)); // 1/4 / (3/8)
    assertThat(b[0][2]).isCloseTo(0, within(1e-12));
    assertThat(b[2][1]).isCloseTo(0, within(1e-12));
    for (int i = 0; i < 3; i++)
      assertThat(b[i][i]).as("an item never explains itself").isZero();
  }

  @Test
  void the_inverse_is_an_inverse() {
    double[][] a = {{4, 1, 0.5}, {1, 3, 0.2}, {0.5, 0.2, 2}};
    double[][] inverse = {a[0].clone(), a[1].clone(), a[2].clone()};
    SymmetricInverse.invertInPlace(inverse);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double sum = 0;
        for (int m = 0; m < 3; m++) sum += a[i][m] * inverse[m][j];
        assertThat(sum).isCloseTo(i == j ? 1 : 0, within(1e-12));
      }
    }
  }

  @Test
  void ease_recommends_the_co_bought_item() {
    Interactions rows = Tiny.rows()
        .buy("ann", "a1", 1, "pen", "ink")
        .buy("bob", "b1", 1, "pen", "ink")
        .buy("cat", "c1", 1, "pen", "ink", "glue")
        .buy("eve", "e1", 1, "glue", "tape")
        .buy("dan", "d1", 1, "ink")
        .build();
    int[] top = Tiny.top(new Ease(1, 1, 100).fit(rows), rows, "dan", 1);
    assertThat(top).containsExactly(Tiny.itemIndex(rows, "pen"));
  }

  @Test
  void the_blend_weights_normalised_scores() {
    Algorithm.Model first = (user, scores) -> {
      scores[0] = 100;
      scores[1] = 50;
    };
    Algorithm.Model second = (user, scores) -> {
      scores[1] = 0.2;
      scores[2] = 0.1;
    };
    double[] scores = new double[3];
    new Blend(List.of(first, second), new double[] {1, 1}).score(0, scores);
    // first: 1, 0.5, 0; second: 0, 1, 0.5
    assertThat(scores).containsExactly(new double[] {1, 1.5, 0.5}, within(1e-12));
  }

  @Test
  void top_n_skips_excluded_and_unscored_items_and_sorts_best_first() {
    double[] scores = {0.5, Double.NEGATIVE_INFINITY, 2, 1, 3};
    assertThat(TopN.of(scores, 3, item -> item == 4)).containsExactly(2, 3, 0);
  }
}

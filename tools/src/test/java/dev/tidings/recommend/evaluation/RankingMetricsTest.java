package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RankingMetricsTest {
  private static final double LOG2_3 = Math.log(3) / Math.log(2);

  @Test
  void a_single_relevant_item_at_rank_one_is_perfect() {
    var m = RankingMetrics.of(new int[] {7, 1, 2}, new int[] {7}, 10);
    assertThat(m.hitRate()).isEqualTo(1);
    assertThat(m.ndcg()).isCloseTo(1, within(1e-12));
    assertThat(m.reciprocalRank()).isEqualTo(1);
    assertThat(m.precision()).isCloseTo(0.1, within(1e-12));
    assertThat(m.recall()).isEqualTo(1);
  }

  @Test
  void a_hit_at_rank_two_of_two_relevant_items() {
    // DCG = 1/log2(3); ideal for 2 relevant = 1 + 1/log2(3)
    var m = RankingMetrics.of(new int[] {5, 3, 9}, new int[] {3, 4}, 3);
    assertThat(m.hitRate()).isEqualTo(1);
    assertThat(m.ndcg()).isCloseTo((1 / LOG2_3) / (1 + 1 / LOG2_3), within(1e-12));
    assertThat(m.reciprocalRank()).isCloseTo(0.5, within(1e-12));
    assertThat(m.precision()).isCloseTo(1.0 / 3, within(1e-12));
    assertThat(m.recall()).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void hits_at_ranks_one_and_three_of_three_relevant() {
    // DCG = 1 + 1/2 (rank 3: 1/log2(4)); ideal = 1 + 1/log2(3) + 1/2
    var m = RankingMetrics.of(new int[] {1, 8, 2, 9}, new int[] {1, 2, 3}, 4);
    assertThat(m.ndcg()).isCloseTo(1.5 / (1.5 + 1 / LOG2_3), within(1e-12));
    assertThat(m.precision()).isCloseTo(0.5, within(1e-12));
    assertThat(m.recall()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(m.reciprocalRank()).isEqualTo(1);
  }

  @Test
  void no_hit_scores_zero_everywhere() {
    var m = RankingMetrics.of(new int[] {1, 2}, new int[] {3}, 10);
    assertThat(m).isEqualTo(new RankingMetrics(0, 0, 0, 0, 0));
  }

  @Test
  void the_ideal_is_capped_at_k_for_a_basket_larger_than_k() {
    // basket of 5, k = 2, both slots hit: NDCG 1, recall 2/5
    var m = RankingMetrics.of(new int[] {1, 2}, new int[] {1, 2, 3, 4, 5}, 2);
    assertThat(m.ndcg()).isCloseTo(1, within(1e-12));
    assertThat(m.recall()).isCloseTo(0.4, within(1e-12));
  }

  @Test
  void the_summary_averages_and_measures_coverage() {
    var summary = MetricsSummary.of(
        List.of(new RankingMetrics(1, 1, 0.1, 1, 1), new RankingMetrics(0, 0, 0, 0, 0)), 3, 12);
    assertThat(summary.users()).isEqualTo(2);
    assertThat(summary.hitRate()).isEqualTo(0.5);
    assertThat(summary.ndcg()).isEqualTo(0.5);
    assertThat(summary.coverage()).isEqualTo(0.25);
  }
}

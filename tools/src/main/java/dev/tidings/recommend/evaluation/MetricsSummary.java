package dev.tidings.recommend.evaluation;

import java.util.List;

/** Mean metrics over the tested users, and the share of the catalogue that reached any top-k list. */
public record MetricsSummary(
    int users,
    double hitRate,
    double ndcg,
    double precision,
    double recall,
    double mrr,
    double coverage) {

  static MetricsSummary of(
      List<RankingMetrics> perUser, int distinctRecommended, int catalogueSize) {
    double hr = 0, ndcg = 0, precision = 0, recall = 0, mrr = 0;
    for (var m : perUser) {
      hr += m.hitRate();
      ndcg += m.ndcg();
      precision += m.precision();
      recall += m.recall();
      mrr += m.reciprocalRank();
    }
    int n = Math.max(1, perUser.size());
    return new MetricsSummary(
        perUser.size(),
        hr / n,
        ndcg / n,
        precision / n,
        recall / n,
        mrr / n,
        catalogueSize == 0 ? 0 : (double) distinctRecommended / catalogueSize);
  }
}

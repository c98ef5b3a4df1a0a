package dev.tidings.recommend.evaluation;

import java.util.Arrays;

/**
 * Binary-relevance metrics of one ranked list against one held-out basket (its distinct items). NDCG
 * divides by the ideal ranking of min(|basket|, k) hits, so a perfect list scores 1 whatever the basket
 * size; MRR is the reciprocal rank of the first hit within the list (0 without a hit).
 */
public record RankingMetrics(
    double hitRate, double ndcg, double precision, double recall, double reciprocalRank) {

  /** {@code relevant} sorted ascending and non-empty; {@code ranked} best first, at most k long. */
  public static RankingMetrics of(int[] ranked, int[] relevant, int k) {
    int hits = 0;
    double dcg = 0;
    double reciprocalRank = 0;
    int depth = Math.min(k, ranked.length);
    for (int rank = 0; rank < depth; rank++) {
      if (Arrays.binarySearch(relevant, ranked[rank]) < 0) continue;
      hits++;
      dcg += 1 / log2(rank + 2);
      if (reciprocalRank == 0) reciprocalRank = 1.0 / (rank + 1);
    }
    double ideal = 0;
    for (int rank = 0; rank < Math.min(k, relevant.length); rank++) ideal += 1 / log2(rank + 2);
    return new RankingMetrics(
        hits > 0 ? 1 : 0,
        dcg / ideal,
        (double) hits / k,
        (double) hits / relevant.length,
        reciprocalRank);
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}

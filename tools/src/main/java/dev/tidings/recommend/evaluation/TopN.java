package dev.tidings.recommend.evaluation;

import java.util.Arrays;
import java.util.function.IntPredicate;

/** The n best-scored items, best first; unscored items (negative infinity) and excluded ones never. */
final class TopN {
  private TopN() {}

  static int[] of(double[] scores, int n, IntPredicate excluded) {
    int[] best = new int[n];
    double[] bestScores = new double[n];
    int size = 0;
    for (int item = 0; item < scores.length; item++) {
      double score = scores[item];
      if (score == Double.NEGATIVE_INFINITY) continue;
      if (size == n && score <= bestScores[n - 1]) continue;
      if (excluded.test(item)) continue;
      // insertion into a sorted list of 10: cheaper than a heap at this size; ties keep the lower
      // id
      int at = size < n ? size++ : n - 1;
      while (at > 0 && bestScores[at - 1] < score) {
        best[at] = best[at - 1];
        bestScores[at] = bestScores[at - 1];
        at--;
      }
      best[at] = item;
      bestScores[at] = score;
    }
    return Arrays.copyOf(best, size);
  }
}

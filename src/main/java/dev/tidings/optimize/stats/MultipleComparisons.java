package dev.tidings.optimize.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Corrections for testing several variants against one control at once: with three challengers each tested
 * at 5%, the chance that at least one "wins" by luck is about 14%. Both keep that family-wise error at alpha.
 */
public final class MultipleComparisons {
  private MultipleComparisons() {}

  /**
   * Holm–Bonferroni (1979): the k-th smallest of m p-values is compared with alpha / (m - k + 1), stopping at
   * the first that fails. Same guarantee as Bonferroni, never rejects less.
   */
  public static boolean[] holm(double[] pValues, double alpha) {
    requireAlpha(alpha);
    int m = pValues.length;
    Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> pValues[i]));
    boolean[] rejected = new boolean[m];
    for (int rank = 0; rank < m; rank++) {
      int index = order[rank];
      if (!(pValues[index] <= alpha / (m - rank))) break;
      rejected[index] = true;
    }
    return rejected;
  }

  /** Bonferroni: each p-value against alpha / m. */
  public static boolean[] bonferroni(double[] pValues, double alpha) {
    requireAlpha(alpha);
    boolean[] rejected = new boolean[pValues.length];
    for (int i = 0; i < pValues.length; i++) rejected[i] = pValues[i] <= alpha / pValues.length;
    return rejected;
  }

  static void requireAlpha(double alpha) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be within (0, 1) but was " + alpha);
    }
  }
}

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

  /**
   * Holm-adjusted p-values: the smallest alpha at which Holm's procedure would reject each hypothesis, so
   * {@code holmAdjusted(p)[i] <= alpha} exactly when {@code holm(p, alpha)[i]}.
   */
  public static double[] holmAdjusted(double[] pValues) {
    int m = pValues.length;
    Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> pValues[i]));
    double[] adjusted = new double[m];
    double running = 0;
    for (int rank = 0; rank < m; rank++) {
      running = Math.max(running, Math.min(1, (m - rank) * pValues[order[rank]]));
      adjusted[order[rank]] = running;
    }
    return adjusted;
  }

  /**
   * Benjamini–Hochberg (1995): controls the false discovery rate, the expected share of false ones among
   * the rejected, at {@code q}. For many hypotheses (an item each across a catalogue) it keeps far more
   * true discoveries than a family-wise correction would.
   */
  public static boolean[] benjaminiHochberg(double[] pValues, double q) {
    double cutoff = benjaminiHochbergCutoff(pValues, pValues.length, q);
    boolean[] rejected = new boolean[pValues.length];
    for (int i = 0; i < pValues.length; i++) rejected[i] = pValues[i] <= cutoff;
    return rejected;
  }

  /**
   * The p-value at or below which Benjamini–Hochberg rejects, among {@code hypotheses} in all of which only
   * the smallest p-values need be given (every p-value left out must be above {@code q}, so it could not
   * be rejected anyway): the largest p_(k) with p_(k) <= k q / m, or -1 when none is rejected.
   */
  public static double benjaminiHochbergCutoff(
      double[] smallestPValues, long hypotheses, double q) {
    requireAlpha(q);
    if (hypotheses < smallestPValues.length)
      throw new IllegalArgumentException("hypotheses (%d) must be at least the p-values given (%d)"
          .formatted(hypotheses, smallestPValues.length));
    double[] sorted = smallestPValues.clone();
    Arrays.sort(sorted);
    double cutoff = -1;
    for (int k = 1; k <= sorted.length; k++)
      if (sorted[k - 1] <= k * q / hypotheses) cutoff = sorted[k - 1];
    return cutoff;
  }

  /**
   * How many of the hypotheses, taken from the surest on, can be rejected while the mean of their local
   * false discovery rates (each the posterior probability that it is true) stays within {@code q}: that
   * mean is the expected share of false rejections among them (Efron 2007; Storey 2003's Bayesian FDR).
   * {@code ascending} must be sorted from the smallest.
   */
  public static int bayesianFalseDiscoveryCount(double[] ascending, double q) {
    requireAlpha(q);
    double sum = 0;
    int count = 0;
    for (double localFdr : ascending) {
      if (count > 0 && localFdr < ascending[count - 1])
        throw new IllegalArgumentException("local false discovery rates must be sorted ascending");
      if (sum + localFdr > q * (count + 1)) break;
      sum += localFdr;
      count++;
    }
    return count;
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

package dev.tidings.recommend.blend;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * EASE (Steck 2019) fitted on the live aggregates: B = I - P / diag(P) with P = (G + lambda I)^-1,
 * where G, the item x item Gram matrix X^T X, is read off the co-occurrence aggregates: G[i][j] is the
 * sessions holding both (co-view plus co-purchase, all time), G[i][i] an item's own count.
 *
 * <p>Limits, on purpose: only the {@code items} most popular items (all time) take part, 1,000 by
 * default: the inverse is dense and cubic (about 2 s for 1,000 items on this 2-CPU machine, 16 s for
 * 2,000, and n^2 floats of memory: 4 MB for 1,000), recomputed in the background every few minutes,
 * so a co-occurrence counted now reaches EASE only at the next fit. Sessions stand in for users (the
 * aggregates count sessions, not users' histories), and an item's neighbours are cut to the strongest
 * {@link Neighbourhood#MAX_NEIGHBOURS}. G read this way need not be positive definite, so its diagonal is
 * raised to at least the row's sum (diagonal dominance), which keeps the unpivoted inversion stable.
 */
final class EaseModel {
  private final Instant fittedAt;
  private final Map<String, Integer> index;
  private final String[] items;
  private final float[][] weights;

  private EaseModel(
      Instant fittedAt, Map<String, Integer> index, String[] items, float[][] weights) {
    this.fittedAt = fittedAt;
    this.index = index;
    this.items = items;
    this.weights = weights;
  }

  static EaseModel fit(ItemModel model, int maxItems, double lambda, Instant now) {
    String[] chosen = model.allNeighbours().keySet().stream()
        .filter(item -> model.allTime(item) > 0)
        .sorted(Comparator.comparingDouble((String item) -> -model.allTime(item))
            .thenComparing(item -> item))
        .limit(maxItems)
        .toArray(String[]::new);
    int n = chosen.length;
    var index = HashMap.<String, Integer>newHashMap(n);
    for (int i = 0; i < n; i++) index.put(chosen[i], i);
    double[][] p = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (Neighbourhood.Neighbour neighbour : model.neighbours(chosen[i])) {
        Integer j = index.get(neighbour.item());
        if (j == null || j == i) continue;
        double together = neighbour.coViews() + neighbour.coPurchases();
        // symmetric whatever the aggregates hold: each direction gives half
        p[i][j] += together / 2;
        p[j][i] += together / 2;
      }
    }
    for (int i = 0; i < n; i++) {
      double rowSum = 0;
      for (int j = 0; j < n; j++) rowSum += p[i][j];
      p[i][i] = Math.max(model.allTime(chosen[i]), rowSum) + lambda;
    }
    SymmetricInverse.invertInPlace(p);
    float[][] b = new float[n][n];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) b[i][j] = i == j ? 0 : (float) (-p[i][j] / p[j][j]);
    return new EaseModel(now, Map.copyOf(index), chosen, b);
  }

  Instant fittedAt() {
    return fittedAt;
  }

  int size() {
    return items.length;
  }

  /** Scores of every model item for a user who touched {@code seeds}, the seeds themselves left out. */
  Map<String, Double> scores(List<String> seeds) {
    double[] sum = new double[items.length];
    boolean any = false;
    var seedRows = new HashSet<Integer>();
    for (String seed : seeds) {
      Integer row = index.get(seed);
      if (row == null) continue;
      any = true;
      seedRows.add(row);
      float[] weightsOfRow = weights[row];
      for (int j = 0; j < sum.length; j++) sum[j] += weightsOfRow[j];
    }
    if (!any) return Map.of();
    var scores = new HashMap<String, Double>();
    for (int j = 0; j < sum.length; j++)
      if (sum[j] > 0 && !seedRows.contains(j)) scores.put(items[j], sum[j]);
    return scores;
  }

  /** B[i][j], for tests. */
  double weight(String from, String to) {
    return weights[Objects.requireNonNull(index.get(from))][Objects.requireNonNull(index.get(to))];
  }
}

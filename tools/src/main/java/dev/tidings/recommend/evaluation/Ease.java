package dev.tidings.recommend.evaluation;

import dev.tidings.recommend.blend.SymmetricInverse;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * EASE (Steck 2019, "Embarrassingly Shallow Autoencoders"): the item x item weights B minimising
 * ||X - XB||^2 + lambda ||B||^2 with a zero diagonal, in closed form B = I - P / diag(P) with
 * P = (X^T X + lambda I)^-1. The inverse is dense and cubic, so only items bought by at least
 * {@code minUsers} users take part, at most {@code maxItems} of them (the most bought); the others are
 * not candidates. A user's score for item j is the sum of B[i][j] over the items i they bought.
 */
public record Ease(double lambda, int minUsers, int maxItems) implements Algorithm {
  @Override
  public String name() {
    return "ease";
  }

  /** The fitted model and its size, for the report. */
  public record Fitted(Model model, int items, double inversionSeconds) {}

  @Override
  public Model fit(Interactions training) {
    return fitMeasured(training).model();
  }

  public Fitted fitMeasured(Interactions training) {
    UserItems userItems = training.userItems();
    int[] chosen = IntStream.range(0, training.itemCount())
        .filter(item -> userItems.usersOf(item) >= minUsers)
        .boxed()
        .sorted(Comparator.comparingInt((Integer item) -> -userItems.usersOf(item))
            .thenComparingInt(item -> item))
        .limit(maxItems)
        .mapToInt(Integer::intValue)
        .toArray();
    int n = chosen.length;
    int[] column = new int[training.itemCount()];
    Arrays.fill(column, -1);
    for (int at = 0; at < n; at++) column[chosen[at]] = at;
    int[] gram = CoPurchases.count(userItems, column, n);
    double[][] p = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) p[a][b] = gram[a * n + b];
      p[a][a] += lambda;
    }
    long start = System.nanoTime();
    SymmetricInverse.invertInPlace(p);
    double seconds = (System.nanoTime() - start) / 1e9;
    // B[i][j] = -P[i][j] / P[j][j] off the diagonal, 0 on it; stored as floats to halve the memory
    float[][] b = new float[n][n];
    IntStream.range(0, n).parallel().forEach(i -> {
      for (int j = 0; j < n; j++) b[i][j] = i == j ? 0 : (float) (-p[i][j] / p[j][j]);
    });
    Model model = (user, scores) -> {
      double[] sum = new double[n];
      for (int bought : userItems.itemsOf(user)) {
        int i = column[bought];
        if (i < 0) continue;
        float[] row = b[i];
        for (int j = 0; j < n; j++) sum[j] += row[j];
      }
      for (int j = 0; j < n; j++) scores[chosen[j]] = sum[j];
    };
    return new Fitted(model, n, seconds);
  }

  /** B itself, for tests: row i, column j over the chosen items. */
  static double[][] weights(double[][] gramPlusLambda) {
    int n = gramPlusLambda.length;
    double[][] p = new double[n][];
    for (int i = 0; i < n; i++) p[i] = gramPlusLambda[i].clone();
    SymmetricInverse.invertInPlace(p);
    double[][] b = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) b[i][j] = i == j ? 0 : -p[i][j] / p[j][j];
    }
    return b;
  }
}

package dev.tidings.recommend.blend;

import java.util.stream.IntStream;

/** The inverse of a symmetric positive definite matrix, as EASE needs of X^T X + lambda I. */
public final class SymmetricInverse {
  private SymmetricInverse() {}

  /**
   * Gauss-Jordan elimination in place, without pivoting: X^T X + lambda I is symmetric positive
   * definite, so every pivot is positive. The row updates of one pivot are independent, so they run on
   * all cores.
   */
  public static void invertInPlace(double[][] a) {
    int n = a.length;
    for (int k = 0; k < n; k++) {
      double[] pivotRow = a[k];
      double pivot = pivotRow[k];
      pivotRow[k] = 1;
      for (int j = 0; j < n; j++) pivotRow[j] /= pivot;
      int pivotIndex = k;
      IntStream.range(0, n).parallel().forEach(i -> {
        if (i == pivotIndex) return;
        double[] row = a[i];
        double factor = row[pivotIndex];
        if (factor == 0) return;
        row[pivotIndex] = 0;
        for (int j = 0; j < n; j++) row[j] -= factor * pivotRow[j];
      });
    }
  }
}

package dev.tidings.recommend.evaluation;

import java.util.Arrays;
import java.util.List;

/**
 * A weighted sum of several fitted algorithms' scores, each first divided by its largest absolute score
 * for that user: scales differ wildly (decayed counts, cosine sums, regression weights), and this keeps
 * a weight meaning "how much this algorithm counts" for every user alike.
 */
public record Blend(List<Algorithm.Model> parts, double[] weights, double[] firstPartScale)
    implements Algorithm.Model {
  /**
   * {@code firstPartScale}, when not empty, multiplies the first part's weight per user (buy-again by
   * each user's {@link RepeatRate}): restockers get more of their own history, explorers less.
   */
  public Blend {
    parts = List.copyOf(parts);
    weights = weights.clone();
    if (weights.length != parts.size()) throw new IllegalArgumentException("one weight per part");
  }

  public Blend(List<Algorithm.Model> parts, double[] weights) {
    this(parts, weights, new double[0]);
  }

  @Override
  public void score(int user, double[] scores) {
    double[][] normalised = normalisedScores(parts, user, scores.length);
    if (firstPartScale.length > 0) scale(normalised[0], firstPartScale[user]);
    combine(normalised, weights, scores);
  }

  static void scale(double[] scores, double factor) {
    for (int item = 0; item < scores.length; item++) scores[item] *= factor;
  }

  /** Each part's scores for the user, scaled into [-1, 1]; items a part does not score get 0. */
  static double[][] normalisedScores(List<Algorithm.Model> parts, int user, int items) {
    double[][] all = new double[parts.size()][];
    for (int part = 0; part < parts.size(); part++) {
      double[] scores = new double[items];
      Arrays.fill(scores, Double.NEGATIVE_INFINITY);
      parts.get(part).score(user, scores);
      double largest = 0;
      for (double s : scores)
        if (s != Double.NEGATIVE_INFINITY) largest = Math.max(largest, Math.abs(s));
      for (int item = 0; item < items; item++) {
        scores[item] =
            scores[item] == Double.NEGATIVE_INFINITY || largest == 0 ? 0 : scores[item] / largest;
      }
      all[part] = scores;
    }
    return all;
  }

  static void combine(double[][] normalised, double[] weights, double[] into) {
    Arrays.fill(into, 0);
    for (int part = 0; part < normalised.length; part++) {
      double weight = weights[part];
      if (weight == 0) continue;
      double[] scores = normalised[part];
      for (int item = 0; item < into.length; item++) into[item] += weight * scores[item];
    }
  }
}

package dev.tidings.recommend.evaluation;

/**
 * One recommendation algorithm under evaluation: fitted once on training interactions, then asked for
 * every tested user's scores over the whole catalogue. The set is closed: the report lists exactly
 * these, plus their blend.
 */
public sealed interface Algorithm permits Popularity, BuyAgain, ItemKnn, Ease {
  /** Short and stable: the report's row label and the blend's weight key. */
  String name();

  Model fit(Interactions training);

  /** A fitted algorithm; thread-safe, so users are scored in parallel. */
  @FunctionalInterface
  interface Model {
    /**
     * Writes the user's score for each item into {@code scores} (one slot per item id, pre-filled with
     * negative infinity); an item left at negative infinity is not a candidate for this algorithm.
     */
    void score(int user, double[] scores);
  }

  /** 2^(-age / half-life): an interaction one half-life old counts half. */
  static double decay(long ageSeconds, double halfLifeDays) {
    return Math.pow(2, -(ageSeconds / 86_400.0) / halfLifeDays);
  }
}

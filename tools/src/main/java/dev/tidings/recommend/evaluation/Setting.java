package dev.tidings.recommend.evaluation;

/**
 * Whether items the user bought before may be recommended. Excluded, they are removed from the ranking
 * and from the held-out basket too (a user whose basket held nothing new is not tested), so the figure
 * says how well an algorithm finds new items.
 */
public enum Setting {
  KEPT,
  EXCLUDED;

  public String label() {
    return this == KEPT ? "kept" : "excluded";
  }
}

package dev.tidings.optimize;

import dev.tidings.optimize.stats.Proportion;

/** What the optimisation reads of a configuration: its id, whether it is current, and its counts. */
public record Arm(String configurationId, boolean current, Proportion counts) {
  /**
   * Impressions and conversions are recorded independently (an add-to-cart may be counted before the batch
   * with its impression), so for a moment an arm can show more conversions than impressions; the rate
   * counts at most one conversion per impression.
   */
  public static Proportion counted(long impressions, long conversions) {
    return new Proportion(Math.min(conversions, impressions), impressions);
  }
}

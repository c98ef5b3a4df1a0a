package dev.tidings.optimize;

import dev.tidings.InvalidInputException;

/**
 * When a challenger replaces the current configuration: both have at least {@code minImpressions}, and the
 * challenger's rate is higher with a p-value that survives Holm's correction at {@code alpha} across the
 * item's challengers.
 */
public record OptimizationCriteria(double alpha, long minImpressions) {
  public static final double DEFAULT_ALPHA = 0.05;

  /** Fewer impressions than this say little about a rate of a few percent, whatever a test says. */
  public static final long DEFAULT_MIN_IMPRESSIONS = 100;

  public OptimizationCriteria {
    if (!(alpha > 0 && alpha < 0.5))
      throw new InvalidInputException("alpha must be above 0 and below 0.5, got " + alpha);
    if (minImpressions < 1)
      throw new InvalidInputException("minImpressions must be at least 1, got " + minImpressions);
  }

  public static OptimizationCriteria defaults() {
    return new OptimizationCriteria(DEFAULT_ALPHA, DEFAULT_MIN_IMPRESSIONS);
  }
}

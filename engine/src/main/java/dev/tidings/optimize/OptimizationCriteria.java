package dev.tidings.optimize;

import dev.tidings.InvalidInputException;
import java.util.Locale;

/**
 * When a challenger replaces the current configuration: both have at least {@code minImpressions}, the
 * challenger's rate is higher, and, by default ({@link Correction#BAYES}), the expected share of false
 * changes among those named stays within {@code alpha} under priors fitted on the whole catalogue; with
 * {@link Correction#CATALOGUE} its p-value survives Holm across the item's challengers and
 * Benjamini–Hochberg across all tested items; with {@link Correction#ITEM}, Holm alone. The default is the
 * way that found the most planted improvements at that error in {@code tidings bench optimize}
 * (docs/benchmarks.md).
 */
public record OptimizationCriteria(double alpha, long minImpressions, Correction correction) {
  public static final double DEFAULT_ALPHA = 0.05;

  /** Fewer impressions than this say little about a rate of a few percent, whatever a test says. */
  public static final long DEFAULT_MIN_IMPRESSIONS = 100;

  /** How far the guard against lucky winners reaches. */
  public enum Correction {
    /**
     * Holm within each item: at most alpha chance of a false winner per item. Over a catalogue that adds up
     * (a million items at 5% name thousands of false winners on a day with no real difference); pages stream.
     */
    ITEM,
    /**
     * Holm within each item, then Benjamini–Hochberg across the tested items: at most alpha of the changes
     * named are false, on average. Needs every item's p-value before the first change, so each call reads
     * the whole catalogue.
     */
    CATALOGUE,
    /**
     * Empirical Bayes across the catalogue: the spread of lifts ({@link
     * dev.tidings.optimize.stats.LiftPrior}) and of conversion rates ({@link
     * dev.tidings.optimize.stats.RatePrior}) are fitted on every item's counts, each item gets the posterior
     * probability that its best challenger is no better (its local false discovery rate), and items are
     * named from the surest on while the mean of those probabilities, the expected share of false changes,
     * stays within alpha. Reads the whole catalogue twice per call: once to fit, once to decide.
     */
    BAYES;

    public static Correction parse(String value) {
      try {
        return valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException(
            "correction must be bayes, item or catalogue, got " + value);
      }
    }
  }

  public OptimizationCriteria {
    if (!(alpha > 0 && alpha < 0.5))
      throw new InvalidInputException("alpha must be above 0 and below 0.5, got " + alpha);
    if (minImpressions < 1)
      throw new InvalidInputException("minImpressions must be at least 1, got " + minImpressions);
  }

  public static OptimizationCriteria defaults() {
    return new OptimizationCriteria(DEFAULT_ALPHA, DEFAULT_MIN_IMPRESSIONS, Correction.BAYES);
  }

  public OptimizationCriteria withCorrection(Correction other) {
    return new OptimizationCriteria(alpha, minImpressions, other);
  }
}

package dev.tidings.optimize.stats;

import dev.tidings.InvalidInputException;

/** {@code successes} out of {@code trials}: conversions out of impressions, clicks out of deliveries. */
public record Proportion(long successes, long trials) {
  public Proportion {
    if (successes < 0 || trials < 0 || successes > trials) {
      throw new InvalidInputException("a proportion needs 0 <= successes <= trials but was %d of %d"
          .formatted(successes, trials));
    }
  }

  public static Proportion of(long successes, long trials) {
    return new Proportion(successes, trials);
  }

  /** The observed rate; 0 when there were no trials yet (nothing seen means nothing converted). */
  public double rate() {
    return trials == 0 ? 0.0 : (double) successes / trials;
  }

  public long failures() {
    return trials - successes;
  }

  public Proportion plus(Proportion other) {
    return new Proportion(successes + other.successes, trials + other.trials);
  }
}

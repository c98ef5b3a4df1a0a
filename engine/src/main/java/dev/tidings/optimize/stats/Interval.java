package dev.tidings.optimize.stats;

/** A closed interval {@code [low, high]}, e.g. a confidence interval for a rate or a difference of rates. */
public record Interval(double low, double high) {
  public Interval {
    if (!(low <= high)) {
      throw new IllegalArgumentException(
          "an interval needs low <= high but was [%s, %s]".formatted(low, high));
    }
  }

  public boolean contains(double value) {
    return low <= value && value <= high;
  }

  public double width() {
    return high - low;
  }

  /** True when the whole interval lies above zero or below it: the difference it bounds has a sign. */
  public boolean excludesZero() {
    return low > 0 || high < 0;
  }

  /** The part of both intervals; {@code this} when they do not overlap, so a bound never inverts. */
  public Interval intersect(Interval other) {
    double newLow = Math.max(low, other.low);
    double newHigh = Math.min(high, other.high);
    return newLow <= newHigh ? new Interval(newLow, newHigh) : this;
  }
}

package dev.tidings.optimize.stats;

/**
 * How the current configurations' conversion rates are spread across a catalogue: a Beta(a, b) fitted by
 * the method of moments, with each rate's binomial noise taken out of the spread. An item's lift is then
 * judged with its rate too: a challenger converting 1.5x a rate that is already among the catalogue's
 * highest is likelier a real lift than the rate being that high for all of the item's configurations.
 *
 * <p>{@link #logRatio} compares "one challenger converts {@code lift} times the others" with "all alike",
 * each integrated over the item's unknown rate under the prior (Laplace's method around the most likely
 * rate; the no-difference side is a beta-binomial in closed form, but both sides use the same
 * approximation so that its error cancels).
 */
public record RatePrior(double a, double b) {
  /** Below this many items the spread of rates is not estimated: the prior stays flat. */
  static final int FEWEST_ITEMS = 50;

  /** A prior that says nothing: every rate alike. */
  public static RatePrior flat() {
    return new RatePrior(1, 1);
  }

  public RatePrior {
    if (!(a > 0 && b > 0)) throw new IllegalArgumentException("a and b must be above 0");
  }

  /** Running moments of the current configurations' rates, for {@link #fit()}. */
  public static final class Moments {
    private long items;
    private double rateSum;
    private double rateSquareSum;
    private double noiseSum;

    public void add(Proportion current) {
      if (current.trials() < 2) return;
      double rate = current.rate();
      items++;
      rateSum += rate;
      rateSquareSum += rate * rate;
      // The unbiased estimate of a binomial rate's sampling variance.
      noiseSum += rate * (1 - rate) / (current.trials() - 1);
    }

    public RatePrior fit() {
      if (items < FEWEST_ITEMS) return flat();
      double mean = rateSum / items;
      double observed = rateSquareSum / items - mean * mean;
      double spread = observed - noiseSum / items;
      if (!(mean > 0 && mean < 1)) return flat();
      // Rates alike across items (or noise swamping their spread): a narrow prior, not a flat one,
      // but held to a spread that a few thousand items' counts could still tell apart.
      double variance = Math.max(spread, mean * (1 - mean) / 1e4);
      double common = mean * (1 - mean) / variance - 1;
      if (!(common > 0)) return flat();
      return new RatePrior(mean * common, (1 - mean) * common);
    }
  }

  /**
   * The log-likelihood ratio of the item's counts when the challenger converts {@code exp(logLift)} times
   * the rest, against all alike, the common rate integrated over the prior.
   */
  public double logRatio(
      long challengerConversions,
      long challengerImpressions,
      long allConversions,
      long allImpressions,
      double logLift) {
    double lift = Math.exp(logLift);
    double successes = a - 1 + allConversions;
    double failuresAlike = b - 1 + allImpressions - allConversions;
    double othersFailures =
        b - 1 + (allImpressions - challengerImpressions) - (allConversions - challengerConversions);
    double challengerFailures = challengerImpressions - challengerConversions;
    if (successes <= 0 || failuresAlike <= 0 || othersFailures <= 0) return Double.NaN;
    double alike = successes / (successes + failuresAlike);
    double alikeLog = successes * Math.log(alike) + failuresAlike * Math.log1p(-alike);
    double alikeCurvature =
        successes / (alike * alike) + failuresAlike / ((1 - alike) * (1 - alike));
    // Newton from where the rate would be if every impression of the challenger counted lift times
    // (exact for Poisson counts, so two or three steps settle it), kept below 1 / lift so the
    // challenger's rate stays a rate.
    double othersImpressions = allImpressions - challengerImpressions;
    double rate = Math.min(
        successes / (a + b - 2 + othersImpressions + lift * challengerImpressions), 0.999 / lift);
    if (!(rate > 0)) rate = Math.min(alike, 0.999 / lift);
    for (int step = 0; step < 20; step++) {
      double lifted = 1 - lift * rate;
      double slope =
          successes / rate - othersFailures / (1 - rate) - challengerFailures * lift / lifted;
      double curvature = successes / (rate * rate)
          + othersFailures / ((1 - rate) * (1 - rate))
          + challengerFailures * lift * lift / (lifted * lifted);
      double next = rate + slope / curvature;
      if (next <= 0) next = rate / 2;
      if (next >= 1 / lift) next = (rate + 1 / lift) / 2;
      boolean settled = Math.abs(next - rate) < 1e-10 * rate;
      rate = next;
      if (settled) break;
    }
    double lifted = 1 - lift * rate;
    double curvature = successes / (rate * rate)
        + othersFailures / ((1 - rate) * (1 - rate))
        + challengerFailures * lift * lift / (lifted * lifted);
    double liftedLog = successes * Math.log(rate)
        + othersFailures * Math.log1p(-rate)
        + challengerFailures * Math.log(lifted)
        + challengerConversions * logLift;
    return liftedLog - alikeLog + 0.5 * Math.log(alikeCurvature / curvature);
  }
}

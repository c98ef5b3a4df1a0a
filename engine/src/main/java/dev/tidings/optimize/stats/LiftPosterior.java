package dev.tidings.optimize.stats;

import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What an item's counts say, under a catalogue's {@link LiftPrior}, about which challenger is better than the
 * current configuration: {@code challenger} (an index into the challengers given) is the likeliest to be
 * better, with probability {@code better}. {@code 1 - better} is the item's local false discovery rate:
 * the chance that naming this challenger would be a false change.
 *
 * <p>The item is read as a whole: either every configuration converts alike, or one challenger converts
 * differently, by a lift drawn from the prior (a challenger is better or worse at the catalogue's usual
 * rate; two differing at once is rare enough to leave out). So a challenger's counts are set against the
 * current configuration and the other challengers together, which is what the catalogue mostly shows them
 * to be: alike. With a {@link RatePrior} the item's unknown common rate is integrated over the catalogue's
 * spread of rates; without one it is conditioned away (see {@link LiftLikelihood}).
 */
public record LiftPosterior(int challenger, double better) {
  /**
   * How far a catalogue's rates are taken to move an item's chance of a better challenger beyond what its
   * counts alone say, for skipping items early. At usual rates the rate prior moves an item's odds by a
   * factor of 2 to 5 (a challenger 1.5x a rate near the top of the catalogue's); on the benchmark no
   * decision changed between margins of 5 and of 1,000, and 10 takes a few seconds for a million items
   * (1,000 takes every item with a positive estimate through the rate prior).
   */
  static final double RATE_MARGIN = 10;

  /** The local false discovery rate of naming {@link #challenger()}. */
  public double notBetter() {
    return 1 - better;
  }

  public static LiftPosterior of(
      LiftPrior prior, Proportion current, List<Proportion> challengers) {
    return new Item(current, challengers).posterior(prior, null);
  }

  /** The posterior with the item's rate judged against the catalogue's rates too. */
  public static LiftPosterior of(
      LiftPrior prior, RatePrior rates, Proportion current, List<Proportion> challengers) {
    return new Item(current, challengers).posterior(prior, rates);
  }

  /**
   * The posterior, unless the item's counts show it cannot reach {@code atLeast} chance of a better
   * challenger: the chance is at most the prior's share of better challengers times the largest
   * likelihood ratio any lift above 1 could have, over the share of no difference. Most items of a
   * catalogue fall below any useful {@code atLeast} on that bound alone, without the full posterior.
   */
  public static Optional<LiftPosterior> ifPossiblyBetter(
      LiftPrior prior, Proportion current, List<Proportion> challengers, double atLeast) {
    return ifPossiblyBetter(prior, null, current, challengers, atLeast);
  }

  /**
   * As {@link #ifPossiblyBetter(LiftPrior, Proportion, List, double)}, the posterior judging the rate too.
   * The bound is the counts' alone, which the rate can move: the item is dropped only when the bound is
   * {@link #RATE_MARGIN} times below {@code atLeast}.
   */
  public static Optional<LiftPosterior> ifPossiblyBetter(
      LiftPrior prior,
      @Nullable RatePrior rates,
      Proportion current,
      List<Proportion> challengers,
      double atLeast) {
    double countsNeed = rates == null ? atLeast : atLeast / RATE_MARGIN;
    var item = new Item(current, challengers);
    double none = prior.noDifference();
    if (none > 0) {
      double bound = 0;
      for (Proportion challenger : challengers)
        bound += prior.better() * Math.exp(item.largestLogRatioAboveOne(challenger)) / none;
      if (bound < countsNeed) return Optional.empty();
    }
    var fromCounts = item.posterior(prior, null);
    if (rates == null) return Optional.of(fromCounts);
    // The rate prior costs a root-finding per lift and challenger: only for items whose counts
    // alone come within the margin.
    if (fromCounts.better() < countsNeed) return Optional.empty();
    return Optional.of(item.posterior(prior, rates));
  }

  /** An item's arms pooled: what every challenger is set against. */
  private record Item(
      Proportion current,
      List<Proportion> challengers,
      long impressions,
      long conversions,
      double calibration) {
    Item(Proportion current, List<Proportion> challengers) {
      this(
          current,
          challengers,
          impressions(current, challengers),
          conversions(current, challengers));
    }

    private Item(
        Proportion current, List<Proportion> challengers, long impressions, long conversions) {
      this(
          current,
          challengers,
          impressions,
          conversions,
          LiftLikelihood.calibration(conversions, impressions));
    }

    private static long impressions(Proportion current, List<Proportion> challengers) {
      if (challengers.isEmpty()) throw new IllegalArgumentException("no challenger");
      long sum = current.trials();
      for (Proportion challenger : challengers) sum += challenger.trials();
      return sum;
    }

    private static long conversions(Proportion current, List<Proportion> challengers) {
      long sum = current.successes();
      for (Proportion challenger : challengers) sum += challenger.successes();
      return sum;
    }

    double share(Proportion challenger) {
      return impressions == 0 ? 0 : (double) challenger.trials() / impressions;
    }

    /**
     * The log-likelihood ratio at the lift that fits the challenger best, when that lift is above 1 (0
     * otherwise): the conversions fall on the challenger in proportion to its share of impressions times
     * the lift, so the best lift sets that proportion to the share of conversions it got.
     */
    double largestLogRatioAboveOne(Proportion challenger) {
      double got = challenger.successes();
      double share = share(challenger);
      if (got == 0 || share == 0) return 0;
      if (got >= conversions) return Double.POSITIVE_INFINITY;
      double logLift = Math.log(got / (conversions - got) * (1 - share) / share);
      if (logLift <= 0) return 0;
      return LiftLikelihood.logRatio(got, conversions, share, calibration, logLift);
    }

    LiftPosterior posterior(LiftPrior prior, @Nullable RatePrior rates) {
      return LiftPosterior.posterior(prior, rates, this);
    }
  }

  private static LiftPosterior posterior(LiftPrior prior, @Nullable RatePrior rates, Item item) {
    var challengers = item.challengers();
    long conversions = item.conversions();
    double calibration = item.calibration();
    int atoms = prior.atoms();
    int none = LiftPrior.GRID_HALF;
    // Log-weights of "all alike" and of each (challenger, lift), each relative to the prior's odds
    // of all alike; a log-sum-exp over them gives each challenger's chance of being better.
    double[][] logWeights = new double[challengers.size()][atoms];
    double highest = Math.log(prior.weight(none));
    for (int c = 0; c < challengers.size(); c++) {
      Proportion challenger = challengers.get(c);
      double share = item.share(challenger);
      for (int k = 0; k < atoms; k++) {
        double weight = prior.weight(k);
        if (k == none || weight == 0) {
          logWeights[c][k] = Double.NEGATIVE_INFINITY;
          continue;
        }
        double ratio = rates == null
            ? Double.NaN
            : rates.logRatio(
                challenger.successes(),
                challenger.trials(),
                conversions,
                item.impressions(),
                prior.logLift(k));
        // Without a rate prior, or where its approximation does not hold
        // (no conversion at all), the counts alone.
        if (Double.isNaN(ratio))
          ratio = LiftLikelihood.logRatio(
              challenger.successes(),
              conversions,
              share,
              calibration,
              prior.logLift(k),
              prior.liftMinusOne(k));
        logWeights[c][k] = Math.log(weight) + ratio;
        highest = Math.max(highest, logWeights[c][k]);
      }
    }
    double total = Math.exp(Math.log(prior.weight(none)) - highest);
    double[] better = new double[challengers.size()];
    for (int c = 0; c < challengers.size(); c++)
      for (int k = 0; k < atoms; k++) {
        double part = Math.exp(logWeights[c][k] - highest);
        total += part;
        if (k > none) better[c] += part;
      }
    int best = 0;
    for (int c = 1; c < better.length; c++) if (better[c] > better[best]) best = c;
    return new LiftPosterior(best, total > 0 ? better[best] / total : 0);
  }
}

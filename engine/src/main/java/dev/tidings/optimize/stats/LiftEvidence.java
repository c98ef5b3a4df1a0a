package dev.tidings.optimize.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Challenger-against-current comparisons of a whole catalogue, for fitting {@link LiftPrior}: comparisons
 * that say the same about the lift share a cell, so memory grows with the variety of counts, not with the
 * number of items (a million items at three configurations fill about a hundred thousand cells).
 *
 * <p>Small counts are kept exactly; from {@link #EXACT_UP_TO} conversions on, the conversions are rounded to
 * 1% steps and the challenger's share of them to steps far below its sampling error; the share of
 * impressions and the binomial correction are grouped too. Each cell keeps the mean of its members' own
 * values rather than its step's centre (the log-likelihood ratio is linear in the counts, so the mean
 * stands for the members exactly when share and correction agree): a catalogue where every challenger gets a third of the
 * impressions would otherwise see all of them rounded the same way, a bias that the fit reads as a small
 * lift of every item.
 */
public final class LiftEvidence {
  /** Conversions up to this count are kept exactly: below it one conversion more moves the estimate a lot. */
  static final int EXACT_UP_TO = 100;

  private static final double CONVERSION_STEP = 0.01;
  private static final double SHARE_STEP = 0.02;
  /** Coarse: the correction scales a comparison's evidence by 1.02-1.11 at usual rates, and each cell keeps its mean. */
  private static final double CALIBRATION_STEP = 0.05;

  /** A group of like comparisons: how many, and the sums of their challenger conversions, all conversions, shares and corrections. */
  private static final class Cell {
    long comparisons;
    double challengerConversions;
    double allConversions;
    double share;
    double calibration;
  }

  /** One group's representative comparison and how many comparisons it stands for. */
  public record Group(
      double challengerConversions,
      double allConversions,
      double share,
      double calibration,
      long comparisons) {}

  private record Key(long conversions, long challengerConversions, long share, long calibration) {}

  private final HashMap<Key, Cell> cells = new HashMap<>();
  private long comparisons;

  /** Adds one challenger compared with its item's current configuration. */
  public void add(Proportion current, Proportion challenger) {
    long all = current.successes() + challenger.successes();
    // No conversion on either side says nothing about a lift and would only slow the fit.
    if (all == 0) return;
    long impressions = current.trials() + challenger.trials();
    double share = (double) challenger.trials() / impressions;
    double calibration = LiftLikelihood.calibration(all, impressions);
    long conversionsKey = all;
    long challengerKey = challenger.successes();
    if (all > EXACT_UP_TO) {
      conversionsKey = EXACT_UP_TO
          + Math.round(Math.log((double) all / EXACT_UP_TO) / Math.log1p(CONVERSION_STEP));
      // The challenger's share of the conversions varies by about 0.5 / sqrt(conversions):
      // steps of a fifth of that.
      double steps =
          10 * Math.sqrt(EXACT_UP_TO * Math.pow(1 + CONVERSION_STEP, conversionsKey - EXACT_UP_TO));
      challengerKey = Math.round((double) challenger.successes() / all * steps);
    }
    var key = new Key(
        conversionsKey,
        challengerKey,
        Math.round(Math.log(share / (1 - share)) / SHARE_STEP),
        Math.round((calibration - 1) / CALIBRATION_STEP));
    var cell = cells.computeIfAbsent(key, k -> new Cell());
    cell.comparisons++;
    cell.challengerConversions += challenger.successes();
    cell.allConversions += all;
    cell.share += share;
    cell.calibration += calibration;
    comparisons++;
  }

  /** Comparisons added that had a conversion. */
  public long comparisons() {
    return comparisons;
  }

  public List<Group> groups() {
    var groups = new ArrayList<Group>(cells.size());
    for (Cell cell : cells.values()) {
      double n = cell.comparisons;
      groups.add(new Group(
          cell.challengerConversions / n,
          cell.allConversions / n,
          cell.share / n,
          cell.calibration / n,
          cell.comparisons));
    }
    return groups;
  }
}

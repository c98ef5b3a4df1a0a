package dev.tidings.sendtime;

import dev.tidings.StableShare;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Chooses each recipient's send time inside one campaign's window {@code [start, start + within)}.
 * The candidates are the window's hours: {@code start} itself, then every whole hour after it; each
 * candidate falls in one hour of the week (UTC).
 *
 * <ul>
 *   <li>A subscriber with opens gets the candidate whose hour has the most of {@code opens[h] +
 *       PRIOR_WEIGHT * everyone[h]}, everyone's opens normalised to sum to 1: empirical-Bayes
 *       shrinkage, so one or two opens only nudge the audience's shape and a long history speaks for
 *       itself (with {@value #PRIOR_WEIGHT} opens the subscriber's own weigh as much as the audience's).
 *   <li>A subscriber with none gets the first candidate nearest {@value #DEFAULT_LOCAL_HOUR}:00 in
 *       their time zone.
 *   <li>A subscriber whose time zone is UTC (what an import without a time zone stores, so it says
 *       nothing) gets the audience's busiest candidate.
 * </ul>
 *
 * Ties go to the earliest candidate. A hold-out share of the recipients, chosen by a hash of the
 * campaign and the subscriber (the same people on every node and every restart), is sent at {@code
 * start}. Immutable; thread-safe.
 */
public final class SendTimePlanner {
  /** How many opens the audience's shape counts for against a subscriber's own. */
  public static final double PRIOR_WEIGHT = 4.0;
  /** The local hour a subscriber without opens receives the email. */
  public static final int DEFAULT_LOCAL_HOUR = 9;

  private final long campaignId;
  private final double holdout;
  private final Instant[] candidates;
  private final int[] hourOfWeek;
  private final double[] prior;
  private final int audienceBest;
  private final Map<ZoneId, Integer> byZone = new ConcurrentHashMap<>();

  /** Where and why one recipient's email is planned. */
  public record Slot(Instant at, Source source, boolean heldOut) {}

  /**
   * @param everyone every subscriber's opens by hour of the week ({@link OpenHours#everyone()})
   */
  public SendTimePlanner(
      long campaignId, Instant start, Duration within, double holdout, long[] everyone) {
    if (within.compareTo(Duration.ofHours(1)) < 0)
      throw new IllegalArgumentException("within must be at least an hour but was " + within);
    if (!(holdout >= 0 && holdout <= 1))
      throw new IllegalArgumentException("holdout must be within 0..1 but was " + holdout);
    if (everyone.length != HourOfWeek.HOURS)
      throw new IllegalArgumentException("everyone must hold " + HourOfWeek.HOURS + " hours");
    this.campaignId = campaignId;
    this.holdout = holdout;
    List<Instant> hours = new ArrayList<>();
    Instant end = start.plus(within);
    hours.add(start);
    for (Instant hour = HourOfWeek.hourStart(start).plus(Duration.ofHours(1));
        hour.isBefore(end);
        hour = hour.plus(Duration.ofHours(1))) hours.add(hour);
    this.candidates = hours.toArray(Instant[]::new);
    this.hourOfWeek = new int[candidates.length];
    for (int i = 0; i < candidates.length; i++) hourOfWeek[i] = HourOfWeek.of(candidates[i]);
    long total = 0;
    for (long opens : everyone) total += opens;
    this.prior = new double[HourOfWeek.HOURS];
    for (int h = 0; h < HourOfWeek.HOURS; h++)
      prior[h] = total == 0 ? 1.0 / HourOfWeek.HOURS : (double) everyone[h] / total;
    int best = 0;
    for (int i = 1; i < candidates.length; i++)
      if (prior[hourOfWeek[i]] > prior[hourOfWeek[best]]) best = i;
    this.audienceBest = best;
  }

  /** The window's candidate send times, earliest first. */
  public List<Instant> candidates() {
    return List.of(candidates);
  }

  /** Plans one recipient; {@code opens} by hour of the week, null when they have none. */
  public Slot plan(String subscriberId, ZoneId timeZone, int @Nullable [] opens) {
    if (heldOut(campaignId, subscriberId, holdout))
      return new Slot(candidates[0], Source.audience, true);
    if (opens != null && hasAny(opens))
      return new Slot(candidates[fromHistory(opens)], Source.history, false);
    if (!timeZone.normalized().equals(ZoneOffset.UTC))
      return new Slot(
          candidates[byZone.computeIfAbsent(timeZone, this::nearestLocalHour)],
          Source.time_zone,
          false);
    return new Slot(candidates[audienceBest], Source.audience, false);
  }

  private int fromHistory(int[] opens) {
    int best = 0;
    double bestScore = -1;
    for (int i = 0; i < candidates.length; i++) {
      int h = hourOfWeek[i];
      double score = opens[h] + PRIOR_WEIGHT * prior[h];
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }

  private int nearestLocalHour(ZoneId zone) {
    int best = 0;
    int bestDistance = Integer.MAX_VALUE;
    for (int i = 0; i < candidates.length; i++) {
      int local = candidates[i].atZone(zone).getHour();
      int distance = Math.abs(local - DEFAULT_LOCAL_HOUR);
      distance = Math.min(distance, 24 - distance);
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    }
    return best;
  }

  private static boolean hasAny(int[] opens) {
    for (int count : opens) if (count > 0) return true;
    return false;
  }

  /**
   * Whether the subscriber is in the campaign's hold-out: a stable share of the campaign's recipients,
   * salted so it is independent of an experiment's cohorts.
   */
  public static boolean heldOut(long campaignId, String subscriberId, double share) {
    return StableShare.within("send-time-holdout:" + campaignId + ":" + subscriberId, share);
  }
}

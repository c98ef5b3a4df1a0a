package dev.tidings.journeys;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What protects a reader across every journey and campaign: at most {@code perDay} emails in any 24
 * hours and {@code perWeek} in any 7 days, and none in their quiet hours where they live ({@code
 * quietFrom} until {@code quietUntil}, across midnight when it ends earlier than it starts; both null
 * for none). A send the limits hold back waits until they allow it rather than being dropped.
 */
public record ReaderLimits(
    int perDay,
    int perWeek,
    @Nullable LocalTime quietFrom,
    @Nullable LocalTime quietUntil) {
  private static final Duration DAY = Duration.ofDays(1);
  private static final Duration WEEK = Duration.ofDays(7);

  /** What a shop gets until it sets its own: three emails a day, ten a week, no quiet hours. */
  public static final ReaderLimits DEFAULT = new ReaderLimits(3, 10, null, null);

  /** Which limit holds a send back. */
  public enum Limit {
    DAY,
    WEEK,
    QUIET
  }

  public ReaderLimits {
    if (perDay < 1 || perWeek < perDay)
      throw new IllegalArgumentException(
          "perDay must be at least 1 and perWeek at least perDay, got " + perDay + " and "
              + perWeek);
    if ((quietFrom == null) != (quietUntil == null)
        || (quietFrom != null && quietFrom.equals(quietUntil)))
      throw new IllegalArgumentException(
          "quiet hours need a start and a different end, or neither");
  }

  /**
   * The earliest instant at or after {@code now} at which one more email may go to a reader who was
   * sent {@code sent} (any order), living in {@code zone}.
   */
  public Instant earliest(List<Instant> sent, ZoneId zone, Instant now) {
    List<Instant> sorted = new ArrayList<>(sent);
    Collections.sort(sorted);
    Instant at = now;
    // each pass moves past one limit; past a cap the window only loses sends, so this settles
    for (int pass = 0; pass < 4 * (sorted.size() + 2); pass++) {
      Instant moved = pastCap(sorted, at, DAY, perDay);
      moved = pastCap(sorted, moved, WEEK, perWeek);
      moved = pastQuiet(moved, zone);
      if (moved.equals(at)) return at;
      at = moved;
    }
    return at;
  }

  /** The limit that holds back an email to go at {@code now}, or empty when it may go then. */
  public Optional<Limit> holding(List<Instant> sent, ZoneId zone, Instant now) {
    List<Instant> sorted = new ArrayList<>(sent);
    Collections.sort(sorted);
    if (!pastCap(sorted, now, DAY, perDay).equals(now)) return Optional.of(Limit.DAY);
    if (!pastCap(sorted, now, WEEK, perWeek).equals(now)) return Optional.of(Limit.WEEK);
    if (!pastQuiet(now, zone).equals(now)) return Optional.of(Limit.QUIET);
    return Optional.empty();
  }

  /** The first instant from {@code at} when fewer than {@code cap} sends fall in the window before. */
  private static Instant pastCap(List<Instant> sorted, Instant at, Duration window, int cap) {
    Instant from = at.minus(window);
    List<Instant> inside = new ArrayList<>();
    for (Instant s : sorted) if (s.isAfter(from) && !s.isAfter(at)) inside.add(s);
    if (inside.size() < cap) return at;
    // once the oldest (inside - cap + 1) have left the window, there is room for one more
    return inside.get(inside.size() - cap).plus(window);
  }

  private Instant pastQuiet(Instant at, ZoneId zone) {
    if (quietFrom == null || quietUntil == null) return at;
    LocalTime local = at.atZone(zone).toLocalTime();
    boolean quiet = quietFrom.isBefore(quietUntil)
        ? !local.isBefore(quietFrom) && local.isBefore(quietUntil)
        : !local.isBefore(quietFrom) || local.isBefore(quietUntil);
    return quiet ? Progress.nextTimeOfDay(quietUntil, at, zone) : at;
  }
}

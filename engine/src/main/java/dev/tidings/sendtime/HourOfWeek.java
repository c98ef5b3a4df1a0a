package dev.tidings.sendtime;

import java.time.Instant;

/** Hours of the week in UTC: 0 is Monday 00:00-01:00, 167 is Sunday 23:00-24:00. */
public final class HourOfWeek {
  public static final int HOURS = 168;
  private static final long SECONDS_PER_HOUR = 3600;
  // 1970-01-01 was a Thursday: three days after the Monday that starts its week
  private static final long EPOCH_HOUR_OF_WEEK = 3 * 24;

  private HourOfWeek() {}

  public static int of(Instant at) {
    long hours = Math.floorDiv(at.getEpochSecond(), SECONDS_PER_HOUR);
    return (int) Math.floorMod(hours + EPOCH_HOUR_OF_WEEK, HOURS);
  }

  /** The start of the hour {@code at} falls in. */
  public static Instant hourStart(Instant at) {
    long hours = Math.floorDiv(at.getEpochSecond(), SECONDS_PER_HOUR);
    return Instant.ofEpochSecond(hours * SECONDS_PER_HOUR);
  }
}

package dev.tidings.evaluation;

import dev.tidings.sendtime.HourOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A simulated reader who checks mail at habitual local hours: {@code checks[h]} is the chance they look
 * at their inbox during hour {@code h} of the week in UTC (their local habits moved by their time
 * zone). An email is opened at a check with a chance that falls the longer it has waited: one that
 * landed just before a habitual hour is near the top of the inbox, one that landed long before is
 * buried under newer mail. {@code storedZone} is what the shop knows of their time zone (UTC when
 * unknown), which may differ from {@code zone}, their real one.
 */
public record HabitualReader(
    String id, ZoneId zone, ZoneId storedZone, Habit habit, double[] checks) {
  /** Chance of opening at a check right after arrival. */
  public static final double FRESH_OPEN = 0.5;
  /** Hours after which that chance has fallen to 1/e: the email is buried under newer mail. */
  public static final double BURY_HOURS = 6;
  /** How long after arrival a reader may still open an email. */
  public static final int HORIZON_HOURS = 72;
  /** Chance of a check in a hour outside the reader's habits. */
  static final double STRAY_CHECK = 0.02;

  /** When a reader habitually checks mail, in local time. */
  public enum Habit {
    WEEKDAY_MORNINGS,
    LUNCH_BREAKS,
    EVENINGS,
    WEEKEND_MORNINGS
  }

  /** A reader with {@code habit}, its hours moved by up to an hour of their own. */
  static HabitualReader draw(
      String id, ZoneId zone, ZoneId storedZone, Habit habit, SplittableRandom random) {
    int shift = random.nextInt(3) - 1;
    double strength = 0.45 + 0.4 * random.nextDouble();
    double[] local = new double[HourOfWeek.HOURS];
    for (int day = 0; day < 7; day++) {
      boolean weekday = day < 5;
      for (int hour = 0; hour < 24; hour++) {
        double chance = hour >= 7 && hour <= 23 ? STRAY_CHECK : STRAY_CHECK / 4;
        int h = hour - shift;
        boolean habitual = switch (habit) {
          case WEEKDAY_MORNINGS -> weekday && (h == 7 || h == 8);
          case LUNCH_BREAKS -> weekday && (h == 12 || h == 13);
          case EVENINGS -> h == 20 || h == 21;
          case WEEKEND_MORNINGS -> !weekday && (h == 9 || h == 10) || weekday && h == 19;
        };
        if (habitual) chance = strength;
        local[day * 24 + hour] = chance;
      }
    }
    // the local hour of the week each UTC hour of the week falls in (this week's offset)
    double[] utc = new double[HourOfWeek.HOURS];
    Instant monday = Instant.parse("2026-03-02T00:00:00Z");
    for (int h = 0; h < HourOfWeek.HOURS; h++) {
      var at = monday.plusSeconds(3600L * h).atZone(zone);
      int localHour = (at.getDayOfWeek().getValue() - 1) * 24 + at.getHour();
      utc[h] = local[localHour];
    }
    return new HabitualReader(id, zone, storedZone, habit, utc);
  }

  /**
   * Whether the reader opens an email that arrives at {@code arrival}, and when (empty: not within
   * the horizon); every check is a fresh draw.
   */
  public Optional<Instant> open(Instant arrival, SplittableRandom random) {
    long arrivalSecond = arrival.getEpochSecond();
    long firstHour = Math.floorDiv(arrivalSecond, 3600);
    for (long hour = firstHour; hour < firstHour + HORIZON_HOURS + 1; hour++) {
      Instant hourStart = Instant.ofEpochSecond(hour * 3600);
      if (random.nextDouble() >= checks[HourOfWeek.of(hourStart)]) continue;
      long checkSecond = hour * 3600 + random.nextLong(3600);
      if (checkSecond < arrivalSecond) continue;
      double waited = (checkSecond - arrivalSecond) / 3600.0;
      if (waited > HORIZON_HOURS) break;
      if (random.nextDouble() < FRESH_OPEN * Math.exp(-waited / BURY_HOURS))
        return Optional.of(Instant.ofEpochSecond(checkSecond));
    }
    return Optional.empty();
  }

  /** The hour of the week (UTC) the reader is likeliest to check mail in: what an oracle knows. */
  public double checkChance(Instant at) {
    return checks[HourOfWeek.of(at)];
  }
}

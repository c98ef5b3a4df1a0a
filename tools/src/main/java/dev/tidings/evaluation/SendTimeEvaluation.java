package dev.tidings.evaluation;

import dev.tidings.sendtime.HourOfWeek;
import dev.tidings.sendtime.SendTimePlanner;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * What per-subscriber send times do to people's open rate, on simulated readers with habitual hours
 * ({@link HabitualReader}). Each reader gets weeks of past emails sent at random times, and their opens
 * become the open-hour history the engine's planner reads (as the funnel's first human opens would);
 * then one campaign is planned by {@link SendTimePlanner} with a hold-out, and each reader's open is
 * drawn for the time their email arrives under four policies, on the same readers: at once, the
 * planner's time (the timed cohort), the hold-out cohort (sent at once), and an oracle that knows each
 * reader's true hours. The effect's size follows the readers' model, not real people.
 */
public final class SendTimeEvaluation {
  private static final String[] ZONES = {
    "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "Asia/Tokyo"
  };
  /** Past emails per week, sent at random hours. */
  private static final int PAST_PER_WEEK = 3;

  public record Options(
      int readers,
      int historyWeeks,
      double newReaderShare,
      double unknownZoneShare,
      Duration within,
      double holdout,
      long seed) {
    public Options {
      if (readers < 100) throw new IllegalArgumentException("readers must be at least 100");
      if (historyWeeks < 0) throw new IllegalArgumentException("historyWeeks must be >= 0");
    }

    public static Options defaults() {
      return new Options(50_000, 4, 0.2, 0.1, Duration.ofHours(24), 0.1, 42);
    }
  }

  /** A group's opens among its readers, with a 95% Wilson interval of the rate. */
  public record Rate(
      String policy, long readers, long opened, double rate, double low, double high) {
    static Rate of(String policy, long readers, long opened) {
      double z = 1.96;
      double p = readers == 0 ? 0 : (double) opened / readers;
      double denominator = 1 + z * z / readers;
      double centre = (p + z * z / (2 * readers)) / denominator;
      double half =
          z * Math.sqrt(p * (1 - p) / readers + z * z / (4.0 * readers * readers)) / denominator;
      return new Rate(policy, readers, opened, p, centre - half, centre + half);
    }
  }

  /** The timed cohort's rate less another's, with a 95% normal-approximation interval. */
  public record Lift(String against, double difference, double low, double high) {
    static Lift of(Rate timed, Rate other) {
      double d = timed.rate() - other.rate();
      double se = Math.sqrt(timed.rate() * (1 - timed.rate()) / timed.readers()
          + other.rate() * (1 - other.rate()) / other.readers());
      return new Lift(other.policy(), d, d - 1.96 * se, d + 1.96 * se);
    }
  }

  public record Report(
      Options options, long pastOpens, List<Rate> rates, List<Lift> lifts, String model) {}

  private SendTimeEvaluation() {}

  public static Report run(Options options, LongConsumer progress) {
    var random = new SplittableRandom(options.seed());
    Instant start = Instant.parse("2026-03-02T06:00:00Z"); // Monday, 07:00 in Berlin
    List<HabitualReader> readers = new ArrayList<>(options.readers());
    var habits = HabitualReader.Habit.values();
    for (int i = 0; i < options.readers(); i++) {
      ZoneId zone = ZoneId.of(ZONES[random.nextInt(ZONES.length)]);
      ZoneId stored = random.nextDouble() < options.unknownZoneShare() ? ZoneOffset.UTC : zone;
      readers.add(HabitualReader.draw(
          "r" + i, zone, stored, habits[random.nextInt(habits.length)], random));
    }
    // history: past emails at random hours of the weeks before the start
    int[][] history = new int[options.readers()][];
    long[] everyone = new long[HourOfWeek.HOURS];
    long pastOpens = 0;
    for (int i = 0; i < readers.size(); i++) {
      if (random.nextDouble() < options.newReaderShare()) continue;
      int[] opens = new int[HourOfWeek.HOURS];
      for (int week = options.historyWeeks(); week >= 1; week--) {
        for (int email = 0; email < PAST_PER_WEEK; email++) {
          Instant sent = start
              .minus(Duration.ofDays(7L * week))
              .plusSeconds(random.nextLong(7L * 24 * 3600 - HabitualReader.HORIZON_HOURS * 3600L));
          var opened = readers.get(i).open(sent, random);
          if (opened.isPresent()) {
            int hour = HourOfWeek.of(opened.get());
            opens[hour]++;
            everyone[hour]++;
            pastOpens++;
          }
        }
      }
      history[i] = opens;
      if (i % 1000 == 0) progress.accept(i / 2);
    }
    var planner = new SendTimePlanner(1, start, options.within(), options.holdout(), everyone);
    List<Instant> candidates = planner.candidates();
    long[] readersOf = new long[4];
    long[] openedOf = new long[4]; // at once, timed, hold-out, oracle
    for (int i = 0; i < readers.size(); i++) {
      HabitualReader reader = readers.get(i);
      var slot = planner.plan(reader.id(), reader.storedZone(), history[i]);
      // every policy is drawn for every reader with its own stream, so they differ only in the time
      long stream = random.nextLong();
      count(
          readersOf,
          openedOf,
          0,
          reader.open(start, new SplittableRandom(stream)).isPresent());
      count(
          readersOf,
          openedOf,
          slot.heldOut() ? 2 : 1,
          reader.open(slot.at(), new SplittableRandom(stream)).isPresent());
      Instant best = candidates.getFirst();
      for (Instant candidate : candidates)
        if (reader.checkChance(candidate) > reader.checkChance(best)) best = candidate;
      count(
          readersOf,
          openedOf,
          3,
          reader.open(best, new SplittableRandom(stream)).isPresent());
      if (i % 1000 == 0) progress.accept(readers.size() / 2 + i / 2);
    }
    progress.accept(readers.size());
    var atOnce = Rate.of("at once", readersOf[0], openedOf[0]);
    var timed = Rate.of("timed", readersOf[1], openedOf[1]);
    var heldOut = Rate.of("hold-out", readersOf[2], openedOf[2]);
    var oracle = Rate.of("oracle", readersOf[3], openedOf[3]);
    return new Report(
        options,
        pastOpens,
        List.of(atOnce, timed, heldOut, oracle),
        List.of(Lift.of(timed, heldOut), Lift.of(timed, atOnce), Lift.of(timed, oracle)),
        "readers check mail at habitual local hours (chance 0.45-0.85 in two habitual hours,"
            + " 0.02 otherwise); an email is opened at a check with chance "
            + HabitualReader.FRESH_OPEN + " * exp(-hours waited / " + HabitualReader.BURY_HOURS
            + "), within " + HabitualReader.HORIZON_HOURS + " h");
  }

  private static void count(long[] readers, long[] opened, int policy, boolean didOpen) {
    readers[policy]++;
    if (didOpen) opened[policy]++;
  }
}

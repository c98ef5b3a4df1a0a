package dev.tidings.jobs;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Something a node runs on a schedule: its {@code name} (the metrics' {@code job} label and the
 * thread's name), when its first round starts, the pause between the end of one round and the start
 * of the next (rounds of one job never overlap), which nodes run a round, and the round itself.
 */
public record BackgroundJob(
    String name, Duration firstAfter, Duration every, Election election, Body body) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,47}");

  /** One round; throwing marks the round failed, and the next one comes as usual. */
  @FunctionalInterface
  public interface Body {
    Election.Round run() throws Exception;
  }

  public BackgroundJob {
    Objects.requireNonNull(election, "election");
    Objects.requireNonNull(body, "body");
    if (!NAME.matcher(name).matches())
      throw new IllegalArgumentException(
          "a job's name is a short lowercase label such as product-feed, got " + name);
    if (firstAfter.isNegative())
      throw new IllegalArgumentException("firstAfter must not be negative, got " + firstAfter);
    if (every.toMillis() < 1)
      throw new IllegalArgumentException("every must be at least 1 ms, got " + every);
  }

  /** A job whose every round does its work where it runs. */
  public static BackgroundJob of(
      String name, Duration firstAfter, Duration every, Election election, Runnable round) {
    return new BackgroundJob(name, firstAfter, every, election, () -> {
      round.run();
      return Election.Round.RAN;
    });
  }
}

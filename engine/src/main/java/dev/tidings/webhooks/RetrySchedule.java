package dev.tidings.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How long a failed delivery waits before each next attempt: after attempt {@code n} fails, the
 * {@code n}th delay, plus up to {@code jitter} of it at random so that an endpoint that comes back
 * is not met by every waiting delivery at once. After the last delay's attempt fails, the delivery
 * is a dead letter. The default spans more than 24 hours, as receivers' outages often do.
 */
public record RetrySchedule(List<Duration> delays, double jitter) {
  /** 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: nine attempts over about 27.6 hours. */
  public static final RetrySchedule DEFAULT = new RetrySchedule(
      List.of(
          Duration.ofSeconds(5),
          Duration.ofMinutes(1),
          Duration.ofMinutes(5),
          Duration.ofMinutes(30),
          Duration.ofHours(2),
          Duration.ofHours(5),
          Duration.ofHours(10),
          Duration.ofHours(10)),
      0.1);

  public RetrySchedule {
    delays = List.copyOf(delays);
    for (Duration delay : delays)
      if (Objects.requireNonNull(delay, "delay").isNegative())
        throw new IllegalArgumentException("a retry delay must not be negative but was " + delay);
    if (!(jitter >= 0 && jitter <= 1))
      throw new IllegalArgumentException("jitter must be within 0..1 but was " + jitter);
  }

  /** Every attempt a delivery gets, the first included. */
  public int attempts() {
    return delays.size() + 1;
  }

  /** The delays added up, without jitter: how long an endpoint may be down before a dead letter. */
  public Duration span() {
    return delays.stream().reduce(Duration.ZERO, Duration::plus);
  }

  /** The wait after attempt {@code attempt} (1-based) failed, jitter included. */
  public Duration after(int attempt, RandomGenerator random) {
    if (attempt < 1 || attempt > delays.size())
      throw new IllegalArgumentException("no retry after attempt " + attempt);
    Duration delay = delays.get(attempt - 1);
    long extra = (long) (delay.toMillis() * jitter * random.nextDouble());
    return delay.plusMillis(extra);
  }
}

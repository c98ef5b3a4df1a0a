package dev.tidings.queue.postgres;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of {@link PostgresWorkQueue}.
 *
 * @param pollInterval how long an idle consumer waits for a NOTIFY before looking at the table anyway
 *     (covers lost notifications, expired leases and retries whose backoff has passed)
 * @param retryBackoff delay before a retried message is visible again, doubled per delivery
 * @param maxRetryBackoff upper bound of that delay
 */
public record PostgresQueueOptions(
    Duration pollInterval, Duration retryBackoff, Duration maxRetryBackoff) {
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofSeconds(1);
  public static final Duration DEFAULT_MAX_RETRY_BACKOFF = Duration.ofMinutes(1);

  public PostgresQueueOptions {
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    Objects.requireNonNull(maxRetryBackoff, "maxRetryBackoff");
    if (pollInterval.toMillis() < 1)
      throw new IllegalArgumentException(
          "pollInterval must be at least 1 ms but was " + pollInterval);
    if (retryBackoff.isNegative())
      throw new IllegalArgumentException(
          "retryBackoff must not be negative but was " + retryBackoff);
    if (maxRetryBackoff.compareTo(retryBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxRetryBackoff " + maxRetryBackoff + " is below retryBackoff " + retryBackoff);
    }
  }

  public static PostgresQueueOptions defaults() {
    return new PostgresQueueOptions(
        DEFAULT_POLL_INTERVAL, DEFAULT_RETRY_BACKOFF, DEFAULT_MAX_RETRY_BACKOFF);
  }

  Duration backoffAfter(int deliveries) {
    int doublings = Math.clamp(deliveries - 1, 0, 20);
    Duration delay = retryBackoff.multipliedBy(1L << doublings);
    return delay.compareTo(maxRetryBackoff) > 0 ? maxRetryBackoff : delay;
  }
}

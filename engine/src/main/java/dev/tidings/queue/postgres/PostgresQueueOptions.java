package dev.tidings.queue.postgres;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of {@link PostgresWorkQueue}. How long a failed message waits is the queue's own
 * {@link dev.tidings.queue.QueueSpec#retry()}.
 *
 * @param pollInterval how long an idle consumer waits for a wake-up before looking at the table anyway
 *     (covers lost notifications, expired leases and retries whose backoff has passed)
 * @param notifyInterval the most often this node sends a NOTIFY for one queue: publishes within it
 *     share one, sent after they committed. Every notifying commit takes one lock of the whole
 *     cluster, so one NOTIFY per publish serialises publishers. {@link Duration#ZERO} sends one in
 *     every publish's own transaction.
 */
public record PostgresQueueOptions(Duration pollInterval, Duration notifyInterval) {
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_NOTIFY_INTERVAL = Duration.ofMillis(5);

  public PostgresQueueOptions {
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(notifyInterval, "notifyInterval");
    if (pollInterval.toMillis() < 1)
      throw new IllegalArgumentException(
          "pollInterval must be at least 1 ms but was " + pollInterval);
    if (notifyInterval.isNegative())
      throw new IllegalArgumentException(
          "notifyInterval must not be negative but was " + notifyInterval);
    if (notifyInterval.compareTo(pollInterval) > 0) {
      throw new IllegalArgumentException("notifyInterval " + notifyInterval
          + " is longer than pollInterval " + pollInterval + ": consumers would poll first");
    }
  }

  public static PostgresQueueOptions defaults() {
    return new PostgresQueueOptions(DEFAULT_POLL_INTERVAL, DEFAULT_NOTIFY_INTERVAL);
  }

  public PostgresQueueOptions withNotifyInterval(Duration interval) {
    return new PostgresQueueOptions(pollInterval, interval);
  }
}

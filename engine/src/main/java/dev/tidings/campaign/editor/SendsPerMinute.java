package dev.tidings.campaign.editor;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * At most {@code limit} takes in any minute on this node: the times of the last minute's takes, so
 * that a refusal can say when the oldest of them leaves the window. Thread-safe.
 */
final class SendsPerMinute {
  private static final Duration WINDOW = Duration.ofMinutes(1);

  private final int limit;
  private final InstantSource clock;
  private final ArrayDeque<Instant> taken = new ArrayDeque<>();

  SendsPerMinute(int limit, InstantSource clock) {
    if (limit < 1) throw new IllegalArgumentException("limit must be at least 1");
    this.limit = limit;
    this.clock = clock;
  }

  /** Empty when one more may go now (and it is counted), else how long until one may. */
  synchronized Optional<Duration> take() {
    Instant now = clock.instant();
    Instant windowStart = now.minus(WINDOW);
    while (!taken.isEmpty() && !taken.peekFirst().isAfter(windowStart)) taken.removeFirst();
    if (taken.size() < limit) {
      taken.addLast(now);
      return Optional.empty();
    }
    return Optional.of(Duration.between(windowStart, taken.peekFirst()));
  }
}

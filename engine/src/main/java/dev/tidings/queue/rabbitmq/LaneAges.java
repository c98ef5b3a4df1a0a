package dev.tidings.queue.rabbitmq;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long the oldest message of a lane may have waited, as a node that consumes the lane can tell:
 * AMQP shows a queue's count, never its head. A lane is first in, first out, so every message waiting
 * in it was published after the last one this node handed out from it, and after the broker last
 * showed it empty: the time since the later of the two is an upper bound of the oldest one's wait.
 * While messages flow it is the wait of the latest one handed out; when consumers stop, it grows, which
 * is what an alert needs. Each node knows only its own hand-outs, so across nodes the least bound is
 * the best.
 */
final class LaneAges {
  private final Map<String, Instant> lastPublishedHandedOut = new ConcurrentHashMap<>();
  private final Map<String, Instant> lastSeenEmpty = new ConcurrentHashMap<>();

  /** A message published at {@code publishedAt} was handed to a handler from {@code lane}. */
  void handedOut(String lane, Instant publishedAt) {
    lastPublishedHandedOut.merge(lane, publishedAt, (a, b) -> a.isAfter(b) ? a : b);
  }

  /** The lane was seen holding {@code count} messages at {@code now}; the bound of its oldest one's wait. */
  Duration seen(String lane, long count, Instant now, Instant watchedSince) {
    if (count == 0) {
      lastSeenEmpty.put(lane, now);
      return Duration.ZERO;
    }
    Instant after = watchedSince;
    Instant empty = lastSeenEmpty.get(lane);
    if (empty != null && empty.isAfter(after)) after = empty;
    Instant handed = lastPublishedHandedOut.get(lane);
    if (handed != null && handed.isAfter(after)) after = handed;
    return after.isAfter(now) ? Duration.ZERO : Duration.between(after, now);
  }
}

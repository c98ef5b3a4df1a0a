package dev.tidings.queue.rabbitmq;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one consumer has received from the lanes of a queue and not yet handed out, and the choice of
 * what to hand out next: the head of the highest lane, except that every {@code oldestEvery}-th
 * delivery goes to the oldest head whatever its lane.
 *
 * <p>The broker only tells a consumer about a lane by delivering from it, so an empty buffer for a
 * lane is ambiguous: either the lane is empty, or its next message is on the wire (the broker sends it
 * only once an ack frees room under the lane's prefetch). The buffer therefore remembers which lanes
 * are expected to deliver (a lane whose prefetch was full when one of its messages was settled, or
 * that held messages when consumption started) and does not let a lower lane overtake them for up to
 * {@code refillWait}; an expected message usually arrives within a round trip and ends the wait.
 *
 * <p>Not thread-safe: its consumer guards it with a lock. Times are {@link System#nanoTime()} values.
 */
final class LaneBuffer<D> {
  private record Waiting<D>(D delivery, long publishedAt) {}

  private final List<ArrayDeque<Waiting<D>>> waiting = new ArrayList<>();
  private final int[] held;
  private final int[] expected;
  private final long[] expectedUntil;
  private final int lanePrefetch;
  private final int oldestEvery;
  private final long refillWaitNanos;
  private long handedOut;

  LaneBuffer(int lanes, int lanePrefetch, int oldestEvery, long refillWaitNanos) {
    if (lanes < 1) throw new IllegalArgumentException("lanes must be at least 1");
    if (lanePrefetch < 1) throw new IllegalArgumentException("lanePrefetch must be at least 1");
    for (int lane = 0; lane < lanes; lane++) waiting.add(new ArrayDeque<>());
    this.held = new int[lanes];
    this.expected = new int[lanes];
    this.expectedUntil = new long[lanes];
    this.lanePrefetch = lanePrefetch;
    this.oldestEvery = oldestEvery;
    this.refillWaitNanos = refillWaitNanos;
  }

  /** {@code ready} messages wait in {@code lane} as consumption starts: the broker will send up to the prefetch of them. */
  void expect(int lane, long ready, long now) {
    expected[lane] = (int) Math.min(ready, lanePrefetch);
    expectedUntil[lane] = now + refillWaitNanos;
  }

  void delivered(int lane, D delivery, long publishedAt) {
    waiting.get(lane).addLast(new Waiting<>(delivery, publishedAt));
    held[lane]++;
    if (expected[lane] > 0) expected[lane]--;
  }

  /** A message of {@code lane} was acknowledged or rejected: with the lane's prefetch full until now, the broker may send another. */
  void settled(int lane, long now) {
    if (held[lane] >= lanePrefetch) {
      expected[lane] = Math.min(expected[lane] + 1, lanePrefetch);
      expectedUntil[lane] = now + refillWaitNanos;
    }
    if (held[lane] > 0) held[lane]--;
  }

  /** Up to {@code max} deliveries to hand out now, in order; empty when nothing may go yet. */
  List<D> take(int max, long now) {
    var taken = new ArrayList<D>(Math.min(max, 64));
    while (taken.size() < max) {
      boolean oldestTurn = oldestEvery > 0 && (handedOut + 1) % oldestEvery == 0;
      int lane = oldestTurn ? oldestLane(now) : highestLane(now);
      if (lane < 0) break;
      Waiting<D> next = waiting.get(lane).pollFirst();
      if (next == null) break;
      taken.add(next.delivery());
      handedOut++;
    }
    return taken;
  }

  /** When a lane's expected delivery stops holding the others back, if one does now. */
  OptionalLong nextDeadline(long now) {
    long earliest = Long.MAX_VALUE;
    for (int lane = 0; lane < expected.length; lane++) {
      if (expecting(lane, now)) earliest = Math.min(earliest, expectedUntil[lane]);
    }
    return earliest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(earliest);
  }

  /** Everything received and not handed out, forgotten: for a closing consumer and a lost channel. */
  List<D> drain() {
    var drained = new ArrayList<D>();
    for (var lane : waiting) {
      lane.forEach(entry -> drained.add(entry.delivery()));
      lane.clear();
    }
    return drained;
  }

  /** The channel was lost: the broker takes back everything it held, so start from nothing. */
  void reset() {
    drain();
    Arrays.fill(held, 0);
    Arrays.fill(expected, 0);
  }

  private boolean expecting(int lane, long now) {
    return expected[lane] > 0 && now - expectedUntil[lane] < 0;
  }

  private int highestLane(long now) {
    for (int lane = waiting.size() - 1; lane >= 0; lane--) {
      if (!waiting.get(lane).isEmpty()) return lane;
      if (expecting(lane, now)) return -1;
    }
    return -1;
  }

  /** The lane whose head was published first; none while a lane's head may still be on its way. */
  private int oldestLane(long now) {
    int oldest = -1;
    long oldestAt = Long.MAX_VALUE;
    for (int lane = waiting.size() - 1; lane >= 0; lane--) {
      if (expecting(lane, now) && waiting.get(lane).isEmpty()) return -1;
      Waiting<D> head = waiting.get(lane).peekFirst();
      if (head != null && head.publishedAt() < oldestAt) {
        oldest = lane;
        oldestAt = head.publishedAt();
      }
    }
    return oldest;
  }
}

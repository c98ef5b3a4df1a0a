package dev.tidings.coordination;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Computes a value once per key across every node that shares this coordinator (seed 01: the slots of
 * one email arrive at once, at any node, and exactly one of them may choose the products).
 *
 * <p>The first caller for a key wins a lock, computes, and publishes the value; every other caller
 * waits for the published value without polling. A winner whose compute throws frees the lock at once
 * and wakes the waiters, so one of them computes instead; a winner that dies or hangs frees it after
 * {@code lockTtl}. Publishing is fenced: a winner whose lock expired and was taken over has its write
 * refused, and it returns the newer winner's value. Fences of a key only grow, also across the loss of
 * the backend's state (a Redis restart). Every key this port writes carries a TTL.
 *
 * <p>{@code maxWait} bounds a non-winner's whole call, also when the backend hangs (a few ms of
 * scheduling aside); a backend that fails says so with {@link CoordinationException}.
 *
 * <p>Thread-safe; one instance serves a whole node, and callers of the same key on one node share one
 * exchange with the backend (the local callers of a local winner are {@link Outcome.Joined}). Calls block:
 * Tidings makes them from virtual threads, so there is no asynchronous variant.
 */
public interface ComputeOnce {

  /** Returns the key's value, computing it with {@code compute} only if this caller wins the lock. */
  Outcome computeOnce(String key, Timings timings, Supplier<String> compute);

  /** The published value for {@code key}, if there is one; never waits and never takes the lock. */
  Optional<String> peek(String key);

  /**
   * @param lockTtl how long a winner may take to compute before another caller may take over
   * @param valueTtl how long the published value is kept; longer than {@code lockTtl}, so a dead
   *     winner's lock is gone before its value would have been
   * @param maxWait how long a non-winner waits for the value before giving up
   */
  record Timings(Duration lockTtl, Duration valueTtl, Duration maxWait) {
    public Timings {
      Objects.requireNonNull(lockTtl, "lockTtl");
      Objects.requireNonNull(valueTtl, "valueTtl");
      Objects.requireNonNull(maxWait, "maxWait");
      if (lockTtl.toMillis() < 1)
        throw new IllegalArgumentException("lockTtl must be at least 1 ms but was " + lockTtl);
      if (valueTtl.compareTo(lockTtl) <= 0) {
        throw new IllegalArgumentException(
            "valueTtl (" + valueTtl + ") must be longer than lockTtl (" + lockTtl + ")");
      }
      if (maxWait.isNegative() || maxWait.isZero())
        throw new IllegalArgumentException("maxWait must be positive but was " + maxWait);
    }
  }

  /** What a call to {@link #computeOnce} ended with. */
  sealed interface Outcome {
    /** This caller held the lock, computed {@code value} and published it under fencing token {@code fence}. */
    record Computed(String value, long fence) implements Outcome {}

    /** Another caller (on any node) computed {@code value}; this caller only read it. */
    record Joined(String value) implements Outcome {}

    /** No value was published within {@code maxWait}; the caller decides what to serve instead. */
    record TimedOut(Duration waited) implements Outcome {}

    /** The value, when there is one. */
    default Optional<String> valueIfAny() {
      return switch (this) {
        case Computed computed -> Optional.of(computed.value());
        case Joined joined -> Optional.of(joined.value());
        case TimedOut ignored -> Optional.empty();
      };
    }
  }
}

package dev.tidings.coordination.inprocess;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@link ComputeOnce} for one JVM. Lock and value TTLs follow the injected clock; {@code maxWait} bounds
 * how long a thread really blocks, so it is measured in real time.
 *
 * <p>Waiters block on a future per key that is completed whenever the key's state changes (a value is
 * published or a lock released), so nobody polls. They wake at least once per {@code lockTtl} to look
 * whether a hung winner's lock has expired and to take it over.
 */
final class InProcessComputeOnce implements ComputeOnce {
  private final InstantSource clock;
  private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();
  private final AtomicLong fences = new AtomicLong();
  private final Sweeper sweeper;

  InProcessComputeOnce(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sweeper = new Sweeper(clock, Duration.ofSeconds(1));
  }

  /**
   * What one key holds. {@code changed} is completed and replaced on every publish or release; the
   * record is replaced as a whole inside {@link ConcurrentHashMap#compute}, which makes each step atomic.
   */
  private record KeyState(
      @Nullable String value,
      @Nullable Instant valueExpiry,
      long lockFence,
      @Nullable Instant lockExpiry,
      CompletableFuture<Void> changed) {

    static KeyState empty() {
      return new KeyState(null, null, 0, null, new CompletableFuture<>());
    }

    /** This state with what has expired by {@code now} dropped. */
    KeyState live(Instant now) {
      boolean valueLive = value != null && valueExpiry != null && now.isBefore(valueExpiry);
      boolean lockLive = lockExpiry != null && now.isBefore(lockExpiry);
      if ((value == null || valueLive) && (lockExpiry == null || lockLive)) return this;
      return new KeyState(
          valueLive ? value : null,
          valueLive ? valueExpiry : null,
          lockLive ? lockFence : 0,
          lockLive ? lockExpiry : null,
          changed);
    }

    boolean isEmpty() {
      return value == null && lockExpiry == null;
    }
  }

  /** The result of one attempt, decided atomically. */
  private sealed interface Attempt {
    record Found(String value) implements Attempt {}

    record Won(long fence) implements Attempt {}

    record Wait(CompletableFuture<Void> changed) implements Attempt {}
  }

  @Override
  public Outcome computeOnce(String key, Timings timings, Supplier<String> compute) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(timings, "timings");
    Objects.requireNonNull(compute, "compute");
    sweeper.maybeSweep(this::sweep);
    long started = System.nanoTime();
    long deadline = started + timings.maxWait().toNanos();
    @Nullable String computed = null; // a refused winner keeps its value in case it wins the lock again
    while (true) {
      switch (attempt(key, timings)) {
        case Attempt.Found found -> {
          return new Outcome.Joined(found.value());
        }
        case Attempt.Won won -> {
          String value = computed != null ? computed : computeAsWinner(key, won.fence(), compute);
          if (publish(key, won.fence(), value, timings.valueTtl()))
            return new Outcome.Computed(value, won.fence());
          computed = value;
        }
        case Attempt.Wait wait -> {
          long left = deadline - System.nanoTime();
          if (left <= 0) return new Outcome.TimedOut(Duration.ofNanos(System.nanoTime() - started));
          await(wait.changed(), Math.min(left, timings.lockTtl().toNanos()));
        }
      }
    }
  }

  private Attempt attempt(String key, Timings timings) {
    Instant now = clock.instant();
    Attempt[] result = new Attempt[1];
    states.compute(key, (k, current) -> {
      KeyState state = (current == null ? KeyState.empty() : current).live(now);
      if (state.value() != null) {
        result[0] = new Attempt.Found(state.value());
        return state;
      }
      if (state.lockExpiry() == null) {
        long fence = fences.incrementAndGet();
        result[0] = new Attempt.Won(fence);
        return new KeyState(null, null, fence, now.plus(timings.lockTtl()), state.changed());
      }
      result[0] = new Attempt.Wait(state.changed());
      return state;
    });
    return result[0];
  }

  private String computeAsWinner(String key, long fence, Supplier<String> compute) {
    try {
      return Objects.requireNonNull(compute.get(), "compute returned null for key " + key);
    } catch (RuntimeException | Error e) {
      release(key, fence);
      throw e;
    }
  }

  /** Writes the value if {@code fence} still holds the lock; false when the lock was lost (fenced out). */
  private boolean publish(String key, long fence, String value, Duration valueTtl) {
    Instant now = clock.instant();
    boolean[] accepted = new boolean[1];
    CompletableFuture<?>[] toWake = new CompletableFuture<?>[1];
    states.computeIfPresent(key, (k, current) -> {
      KeyState state = current.live(now);
      if (state.lockExpiry() == null || state.lockFence() != fence)
        return state.isEmpty() ? null : state;
      accepted[0] = true;
      toWake[0] = state.changed();
      return new KeyState(value, now.plus(valueTtl), 0, null, new CompletableFuture<>());
    });
    if (toWake[0] != null) toWake[0].complete(null);
    return accepted[0];
  }

  /** A failed winner frees its lock at once and wakes the waiters, so one of them computes instead. */
  private void release(String key, long fence) {
    CompletableFuture<?>[] toWake = new CompletableFuture<?>[1];
    states.computeIfPresent(key, (k, state) -> {
      if (state.lockFence() != fence) return state;
      toWake[0] = state.changed();
      KeyState released =
          new KeyState(state.value(), state.valueExpiry(), 0, null, new CompletableFuture<>());
      return released.isEmpty() ? null : released;
    });
    if (toWake[0] != null) toWake[0].complete(null);
  }

  private static void await(CompletableFuture<Void> changed, long nanos) {
    try {
      changed.get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      // a slice passed: the caller looks again whether the lock expired
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted while waiting for a computed value", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("state futures are only ever completed normally", e);
    }
  }

  @Override
  public Optional<String> peek(String key) {
    Objects.requireNonNull(key, "key");
    KeyState state = states.get(key);
    return state == null
        ? Optional.empty()
        : Optional.ofNullable(state.live(clock.instant()).value());
  }

  /** Drops keys with neither a live value nor a live lock, so expired keys do not pile up. */
  private void sweep(Instant now) {
    // removal is conditional on the value seen, so a state changed meanwhile stays
    states.values().removeIf(state -> state.live(now).isEmpty());
  }

  /** Entries held now, live or not yet swept; for tests of bounded memory. */
  int size() {
    return states.size();
  }
}

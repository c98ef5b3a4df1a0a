package dev.tidings.coordination.inprocess;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs a cleanup on the calling thread at most once per {@code interval} of clock time, so expired
 * entries are dropped without a background thread and memory stays bounded by what is live.
 */
final class Sweeper {
  private final InstantSource clock;
  private final Duration interval;
  private final AtomicReference<Instant> next;

  Sweeper(InstantSource clock, Duration interval) {
    this.clock = clock;
    this.interval = interval;
    this.next = new AtomicReference<>(clock.instant().plus(interval));
  }

  void maybeSweep(Consumer<Instant> sweep) {
    Instant now = clock.instant();
    Instant due = next.get();
    if (now.isBefore(due) || !next.compareAndSet(due, now.plus(interval))) return;
    sweep.accept(now);
  }
}

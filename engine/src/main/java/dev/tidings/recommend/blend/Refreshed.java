package dev.tidings.recommend.blend;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value rebuilt on a schedule in the background: the request path reads the last one built and
 * never waits for a rebuild, except the very first, which the first reader builds. A failed rebuild
 * keeps the old value and is tried again at the next tick.
 */
final class Refreshed<T> {
  private static final Logger LOG = LoggerFactory.getLogger(Refreshed.class);

  private final String name;
  private final Supplier<T> build;
  private final ReentrantLock building = new ReentrantLock();
  private volatile @Nullable T current;

  Refreshed(String name, Supplier<T> build) {
    this.name = name;
    this.build = build;
  }

  /** Rebuilds every {@code every} on {@code scheduler}, starting one period from now. */
  Refreshed<T> every(Duration every, ScheduledExecutorService scheduler) {
    return every(every, scheduler, every);
  }

  /** Rebuilds every {@code every} on {@code scheduler}, the first time after {@code first}. */
  Refreshed<T> every(Duration every, ScheduledExecutorService scheduler, Duration first) {
    long millis = Math.max(1, every.toMillis());
    scheduler.scheduleWithFixedDelay(
        this::refreshQuietly, first.toMillis(), millis, TimeUnit.MILLISECONDS);
    return this;
  }

  /** The last value built, null when none has been yet; never builds. */
  @Nullable T current() {
    return current;
  }

  /** The last value built; built now when there is none. */
  T get() {
    T value = current;
    return value != null ? value : refresh();
  }

  /** Rebuilds now on the caller's thread; concurrent callers share one rebuild. */
  T refresh() {
    building.lock();
    try {
      T value = build.get();
      current = value;
      return value;
    } finally {
      building.unlock();
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.warn("recommendations: rebuilding {} failed; keeping the previous one", name, e);
    }
  }
}

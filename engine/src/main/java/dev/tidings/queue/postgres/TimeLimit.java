package dev.tidings.queue.postgres;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Runs handlers under {@link dev.tidings.queue.QueueSpec#handlerTimeout()}: past it, the handler's
 * thread is interrupted and its call counts as failed, whatever it returns afterwards.
 *
 * <p>The interrupt is delivered only while the handler itself runs, never once it has returned: an
 * interrupt that reached the thread during the settlement's socket I/O would close the connection.
 */
final class TimeLimit implements AutoCloseable {
  private final ScheduledThreadPoolExecutor alarms;

  TimeLimit(String name) {
    alarms = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name(name).factory());
    // Nearly every alarm is cancelled; without this each would stay queued until its time.
    alarms.setRemoveOnCancelPolicy(true);
  }

  /** How a call went. */
  sealed interface Outcome<T> {
    record Returned<T>(T value) implements Outcome<T> {}

    /** An Error too: left unsettled, its messages would stay leased for as long as this node lives. */
    record Threw<T>(Throwable exception) implements Outcome<T> {}

    record TimedOut<T>(Duration limit) implements Outcome<T> {}
  }

  /**
   * Runs {@code work} on the calling thread; if it is still running after {@code limit},
   * {@code onExpiry} runs and the thread is interrupted.
   */
  <T> Outcome<T> run(Duration limit, Runnable onExpiry, Callable<T> work) {
    var guard = new Guard(Thread.currentThread(), onExpiry);
    ScheduledFuture<?> alarm =
        alarms.schedule(guard::expire, limit.toNanos(), TimeUnit.NANOSECONDS);
    @Nullable T value = null;
    @Nullable Throwable failure = null;
    try {
      value = work.call();
    } catch (Exception | Error e) {
      failure = e;
    } finally {
      alarm.cancel(false);
      if (!guard.finish()) {
        // Expired: the interrupt was delivered before finish() could take the guard; clear it so
        // that it does not hit what the thread does next.
        Thread.interrupted();
      }
    }
    if (guard.expired()) return new Outcome.TimedOut<>(limit);
    if (failure != null) return new Outcome.Threw<>(failure);
    if (value == null)
      return new Outcome.Threw<>(new NullPointerException("the handler returned null"));
    return new Outcome.Returned<>(value);
  }

  @Override
  public void close() {
    alarms.shutdownNow();
  }

  private static final class Guard {
    private final Thread thread;
    private final Runnable onExpiry;
    private boolean running = true;
    private boolean expired;

    Guard(Thread thread, Runnable onExpiry) {
      this.thread = thread;
      this.onExpiry = onExpiry;
    }

    synchronized void expire() {
      if (!running) return;
      running = false;
      expired = true;
      onExpiry.run();
      thread.interrupt();
    }

    /** False when the limit was reached first. */
    synchronized boolean finish() {
      if (!running) return false;
      running = false;
      return true;
    }

    synchronized boolean expired() {
      return expired;
    }
  }
}

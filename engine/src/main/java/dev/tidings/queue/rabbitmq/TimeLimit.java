package dev.tidings.queue.rabbitmq;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs a handler on the calling thread and interrupts it when it runs past its limit. */
final class TimeLimit {
  private static final int RUNNING = 0;
  private static final int DONE = 1;
  private static final int INTERRUPTING = 2;
  private static final int INTERRUPTED = 3;

  /** The work ran past its limit; whatever it returned or threw no longer counts. */
  static final class Exceeded extends Exception {
    private final String reason;

    Exceeded(Duration limit, Throwable cause) {
      super("handler ran longer than its limit of " + limit, cause);
      this.reason = "handler ran longer than its limit of " + limit;
    }

    String reason() {
      return reason;
    }
  }

  private final ScheduledExecutorService timer;

  TimeLimit(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  <T> T run(Duration limit, Callable<T> work) throws Exception {
    Thread worker = Thread.currentThread();
    var state = new AtomicInteger(RUNNING);
    ScheduledFuture<?> alarm = timer.schedule(
        () -> {
          if (state.compareAndSet(RUNNING, INTERRUPTING)) {
            worker.interrupt();
            state.set(INTERRUPTED);
          }
        },
        limit.toNanos(),
        TimeUnit.NANOSECONDS);
    T value;
    try {
      value = work.call();
    } catch (Exception e) {
      if (!finish(state, alarm)) throw new Exceeded(limit, e);
      throw e;
    } catch (Error e) {
      finish(state, alarm);
      throw e;
    }
    if (!finish(state, alarm)) throw new Exceeded(limit, new InterruptedException());
    return value;
  }

  /** True when the work finished in time; otherwise waits for the interrupt to land and clears it, so settling is not interrupted. */
  private static boolean finish(AtomicInteger state, ScheduledFuture<?> alarm) {
    if (state.compareAndSet(RUNNING, DONE)) {
      alarm.cancel(false);
      return true;
    }
    while (state.get() != INTERRUPTED) Thread.onSpinWait();
    Thread.interrupted();
    return false;
  }
}

package dev.tidings.activity.aggregate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts on this node, round after round, while events wait; when none wait it looks again every
 * {@link Options#idlePoll()}, so an event is counted within about that plus one round of being
 * stored, on whichever node stored it. A failing round (the database away) is retried after a pause
 * that grows to a few seconds. (Day aggregates past their lifetime are dropped by the worker nodes'
 * retention, through {@link AggregateStore#dayExpiry()}.)
 */
public final class AggregationRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AggregationRunner.class);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  /** How much longer than the first loop the other loops rest while nothing waits. */
  private static final int IDLE_HELPERS_FACTOR = 20;

  /**
   * @param batch events counted per round while the backlog is short
   * @param maxBatch events counted per round at most: a full round doubles the next one up to this, so
   *     under load more events share each key's write (a popular item's, a busy user's), and a round
   *     that is not full goes back to {@code batch}
   * @param idlePoll how long to wait before looking again when nothing waits
   * @param loops rounds run at once on this node: PostgreSQL writes one statement on one core, so two
   *     overlap one round's upserts with the next one's claim and reads (1.25x measured on 2 cores)
   */
  public record Options(int batch, int maxBatch, Duration idlePoll, int loops) {
    public Options {
      if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
      if (maxBatch < batch)
        throw new IllegalArgumentException(
            "maxBatch must be >= batch (" + batch + "), got " + maxBatch);
      if (loops < 1) throw new IllegalArgumentException("loops must be >= 1, got " + loops);
    }

    public static Options defaults() {
      return new Options(5_000, 40_000, Duration.ofMillis(50), 2);
    }

    /** The next round's size after one of {@code size} that counted {@code counted}. */
    int next(int size, int counted) {
      return counted < size ? batch : (int) Math.min(maxBatch, 2L * size);
    }
  }

  private final BacklogAggregation aggregation;
  private final Options options;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean closed;

  private AggregationRunner(BacklogAggregation aggregation, Options options) {
    this.aggregation = aggregation;
    this.options = options;
    for (int i = 0; i < options.loops(); i++) {
      boolean first = i == 0;
      threads.add(Thread.ofVirtual().name("aggregation-" + i).unstarted(() -> run(first)));
    }
  }

  public static AggregationRunner start(BacklogAggregation aggregation, Options options) {
    var runner = new AggregationRunner(aggregation, options);
    runner.threads.forEach(Thread::start);
    return runner;
  }

  /** Looks for waiting events now rather than at the next poll (this node just stored some). */
  public void nudge() {
    lock.lock();
    try {
      wake.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The first loop looks every {@link Options#idlePoll()} and wakes the others when it finds a full
   * round waiting; they rest longer when nothing waits, so an idle node asks the database once per poll,
   * not once per loop.
   */
  private void run(boolean first) {
    Duration idle =
        first ? options.idlePoll() : options.idlePoll().multipliedBy(IDLE_HELPERS_FACTOR);
    Duration backoff = options.idlePoll();
    int size = options.batch();
    while (!closed) {
      try {
        int counted = aggregation.countOnce(size);
        backoff = options.idlePoll();
        boolean full = counted == size;
        size = options.next(size, counted);
        if (!full) pause(idle);
        else if (first) nudge();
      } catch (RuntimeException e) {
        if (closed) return;
        log.warn("aggregation: counting failed; trying again in {} ms", backoff.toMillis(), e);
        pause(backoff);
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
            ? MAX_BACKOFF
            : backoff.multipliedBy(2);
      }
    }
  }

  private void pause(Duration duration) {
    lock.lock();
    try {
      if (!closed) wake.await(duration.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    closed = true;
    nudge();
    try {
      for (Thread thread : threads) thread.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

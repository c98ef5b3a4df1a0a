package dev.tidings.app;

import dev.tidings.storage.Expiry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what outlived its lifetime from every table that grows with traffic, through the {@link
 * Expiry} each owner publishes, on the worker nodes, one node at a time. A run goes table by table
 * in bounded steps, one short transaction each, and rests between two steps as long as the last one
 * took, so at most half of one connection's time goes to removing while sending and receipts go on.
 * Counted in {@code tidings_retention_rows_removed_total{table}}; the last run this node made is
 * {@code tidings_retention_last_run_timestamp_seconds}.
 */
public final class Retention implements AutoCloseable {
  public static final String REMOVED = "tidings.retention.rows.removed";
  static final String LAST_RUN = "tidings.retention.last.run.timestamp";
  private static final Logger log = LoggerFactory.getLogger(Retention.class);
  /** The advisory lock (one key of Tidings' space) that lets one node run at a time. */
  private static final long RUN_LOCK = 7_310;
  /** The shortest rest between two steps, however quick the last one was. */
  private static final Duration SHORTEST_REST = Duration.ofMillis(10);
  /** A node's first run, shortly after it started, so that restarts do not postpone it. */
  private static final Duration FIRST_RUN = Duration.ofMinutes(1);

  /** Lets one node run at a time: empty when another node is running now. */
  @FunctionalInterface
  public interface RunLock {
    Optional<AutoCloseable> tryTake();

    /** Every run may go (one node, tests). */
    RunLock NONE = () -> Optional.of(() -> {});

    /** A session advisory lock, held on a connection of its own for the run. */
    static RunLock advisory(Jdbi jdbi) {
      return () -> {
        Handle handle = jdbi.open();
        try {
          boolean taken = handle
              .createQuery("SELECT pg_try_advisory_lock(" + RUN_LOCK + ")")
              .mapTo(Boolean.class)
              .one();
          if (taken)
            return Optional.of(() -> {
              try (handle) {
                handle
                    .createQuery("SELECT pg_advisory_unlock(" + RUN_LOCK + ")")
                    .mapTo(Boolean.class)
                    .one();
              }
            });
          handle.close();
          return Optional.empty();
        } catch (RuntimeException e) {
          handle.close();
          throw e;
        }
      };
    }
  }

  /**
   * What one run removed, per table in the order they ran, and the tables whose removal failed (the
   * next run takes them up); empty when another node was running.
   */
  public record Run(Map<String, Long> removed, List<String> failed, Duration took, boolean ran) {
    public long total() {
      return removed.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final List<Expiring> kept;
  private final RunLock runLock;
  private final InstantSource clock;
  private final int batch;
  private final Map<String, Counter> counters = new LinkedHashMap<>();
  private final AtomicLong lastRun = new AtomicLong(-1);
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private volatile boolean closed;
  private @Nullable Thread thread;

  public Retention(
      List<Expiring> kept, RunLock runLock, InstantSource clock, MeterRegistry metrics, int batch) {
    if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
    this.kept = List.copyOf(kept);
    this.runLock = runLock;
    this.clock = clock;
    this.batch = batch;
    for (Expiring table : this.kept)
      counters.computeIfAbsent(
          table.expiry().table(),
          name -> Counter.builder(REMOVED)
              .description("rows removed by retention after their lifetime, by table")
              .tag("table", name)
              .register(metrics));
    Gauge.builder(LAST_RUN, lastRun, last -> last.get() < 0 ? Double.NaN : last.get() / 1000.0)
        .description("when this node last finished a retention run (seconds since the epoch)")
        .baseUnit("seconds")
        .register(metrics);
  }

  /** Runs every {@code interval} until closed, the first time a minute after the start at most. */
  public synchronized Retention start(Duration interval) {
    if (thread != null) throw new IllegalStateException("already started");
    Duration first = interval.compareTo(FIRST_RUN) < 0 ? interval : FIRST_RUN;
    thread = Thread.ofVirtual().name("retention").start(() -> {
      rest(first);
      while (!closed) {
        runLogged();
        rest(interval);
      }
    });
    return this;
  }

  /** One run now, on this thread, unless another node is running; steps rest as in the background. */
  public Run runOnce() {
    long started = System.nanoTime();
    Optional<AutoCloseable> held = runLock.tryTake();
    if (held.isEmpty()) return new Run(Map.of(), List.of(), Duration.ZERO, false);
    Map<String, Long> removed = new LinkedHashMap<>();
    List<String> failed = new ArrayList<>();
    try (AutoCloseable ignored = held.get()) {
      Instant now = clock.instant();
      for (Expiring table : kept) {
        if (closed) break;
        String name = table.expiry().table();
        var total = new AtomicLong();
        try {
          removeExpired(table, now, total);
        } catch (RuntimeException e) {
          // one table's failure (a lock timeout, the database away) leaves the others their turn
          if (closed) break;
          failed.add(name);
          log.warn(
              "retention: removing from {} failed; the next run takes it up: {}",
              name,
              e.toString());
        }
        removed.merge(name, total.get(), Long::sum);
      }
    } catch (Exception e) {
      log.warn("retention: releasing the run's lock failed: {}", e.toString());
    }
    lastRun.set(clock.millis());
    return new Run(removed, failed, Duration.ofNanos(System.nanoTime() - started), true);
  }

  private void removeExpired(Expiring table, Instant now, AtomicLong total) {
    Instant before = now.minus(table.lifetime());
    Counter counter = counters.get(table.expiry().table());
    while (!closed) {
      long stepStarted = System.nanoTime();
      Expiry.Removed step = table.expiry().removeSome(before, batch);
      total.addAndGet(step.rows());
      if (counter != null) counter.increment(step.rows());
      if (step.done()) break;
      Duration took = Duration.ofNanos(System.nanoTime() - stepStarted);
      rest(took.compareTo(SHORTEST_REST) < 0 ? SHORTEST_REST : took);
    }
  }

  private void runLogged() {
    try {
      Run run = runOnce();
      if (!run.ran()) {
        log.debug("retention: another node is running it; this one looks again later");
        return;
      }
      log.info(
          "retention: removed {} rows in {} ms ({}){}",
          run.total(),
          run.took().toMillis(),
          run.removed().entrySet().stream()
              .map(entry -> entry.getKey() + " " + entry.getValue())
              .collect(Collectors.joining(", ")),
          run.failed().isEmpty() ? "" : "; failed: " + String.join(", ", run.failed()));
    } catch (RuntimeException e) {
      // a stop in the middle of a step is expected; the database away for a while loses nothing,
      // as the next run takes up what is left
      if (!closed) log.warn("retention: a run failed; the next one takes it up: {}", e.toString());
    }
  }

  private void rest(Duration duration) {
    lock.lock();
    try {
      long nanos = duration.toNanos();
      while (!closed && nanos > 0) nanos = wake.awaitNanos(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  /** Stops after the step in flight (one short transaction) and waits for it, a few seconds at most. */
  @Override
  public void close() {
    closed = true;
    lock.lock();
    try {
      wake.signalAll();
    } finally {
      lock.unlock();
    }
    Thread running;
    synchronized (this) {
      running = thread;
    }
    if (running == null) return;
    try {
      if (!running.join(java.time.Duration.ofSeconds(10)))
        log.warn("retention: still removing after 10 s; the node stops without waiting for it");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "retention";
  }
}

package dev.tidings.retention;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what outlived its lifetime from every table that grows with traffic, through the {@link
 * Expiry} each owner publishes, as a background job of the worker nodes, one node at a time. A run goes table by table
 * in bounded steps, one short transaction each, and rests between two steps as long as the last one
 * took, so at most half of one connection's time goes to removing while sending and receipts go on.
 * Counted in {@code tidings_retention_rows_removed_total{table}}; the last run this node made is
 * {@code tidings_retention_last_run_timestamp_seconds}.
 */
public final class Retention {
  public static final String REMOVED = "tidings.retention.rows.removed";
  public static final String LAST_RUN = "tidings.retention.last.run.timestamp";
  private static final Logger log = LoggerFactory.getLogger(Retention.class);
  /** The shortest rest between two steps, however quick the last one was. */
  private static final Duration SHORTEST_REST = Duration.ofMillis(10);
  /** A node's first run, shortly after it started, so that restarts do not postpone it. */
  private static final Duration FIRST_RUN = Duration.ofMinutes(1);

  /**
   * What one run removed, per table in the order they ran, and the tables whose removal failed (the
   * next run takes them up).
   */
  public record Run(Map<String, Long> removed, List<String> failed, Duration took) {
    public long total() {
      return removed.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final List<Expiring> kept;
  private final InstantSource clock;
  private final int batch;
  private final Map<String, Counter> counters = new LinkedHashMap<>();
  private final AtomicLong lastRun = new AtomicLong(-1);

  public Retention(List<Expiring> kept, InstantSource clock, MeterRegistry metrics, int batch) {
    if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
    this.kept = List.copyOf(kept);
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

  /**
   * Runs every {@code interval}, the first time a minute after the start at most, on the nodes {@code
   * election} chooses (the worker nodes: one at a time). Stopping the job stops a run after the step
   * in flight, one short transaction.
   */
  public BackgroundJob job(Duration interval, Election election) {
    Duration first = interval.compareTo(FIRST_RUN) < 0 ? interval : FIRST_RUN;
    return BackgroundJob.of("retention", first, interval, election, this::runLogged);
  }

  /** One run now, on this thread; steps rest as in the background. An interrupt stops it between two. */
  public Run runOnce() {
    long started = System.nanoTime();
    Map<String, Long> removed = new LinkedHashMap<>();
    List<String> failed = new ArrayList<>();
    Instant now = clock.instant();
    for (Expiring table : kept) {
      if (stopping()) break;
      String name = table.expiry().table();
      var total = new AtomicLong();
      try {
        removeExpired(table, now, total);
      } catch (RuntimeException e) {
        // one table's failure (a lock timeout, the database away) leaves the others their turn
        if (stopping()) break;
        failed.add(name);
        log.warn(
            "retention: removing from {} failed; the next run takes it up: {}", name, e.toString());
      }
      removed.merge(name, total.get(), Long::sum);
    }
    lastRun.set(clock.millis());
    return new Run(removed, failed, Duration.ofNanos(System.nanoTime() - started));
  }

  private static boolean stopping() {
    return Thread.currentThread().isInterrupted();
  }

  private void removeExpired(Expiring table, Instant now, AtomicLong total) {
    Instant before = now.minus(table.lifetime());
    Counter counter = counters.get(table.expiry().table());
    while (!stopping()) {
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
    Run run = runOnce();
    log.info(
        "retention: removed {} rows in {} ms ({}){}",
        run.total(),
        run.took().toMillis(),
        run.removed().entrySet().stream()
            .map(entry -> entry.getKey() + " " + entry.getValue())
            .collect(Collectors.joining(", ")),
        run.failed().isEmpty() ? "" : "; failed: " + String.join(", ", run.failed()));
  }

  /** Rests between two steps; an interrupt (the node stopping) ends the rest and, after it, the run. */
  private static void rest(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "retention";
  }
}

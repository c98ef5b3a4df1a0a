package dev.tidings.jobs;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a node's background jobs. One timer thread only starts rounds; each round runs on a virtual
 * thread of its own, so a long round (a feed import, a retention run) delays no other job, and the
 * next round of a job is timed from the end of the last, so two never overlap.
 *
 * <p>Every round is counted in {@value #RUNS}{@code _total{job,outcome}}: {@code succeeded}, {@code
 * failed}, or {@code skipped} (another node was elected); the end of a job's last successful round
 * on this node is {@value #LAST_SUCCESS}{@code {job}}. A failure is logged with its stack trace the
 * first time it happens, and again only once a different failure or a success came in between: a
 * database away for an hour is one warning, not one a second.
 */
public final class BackgroundJobs implements AutoCloseable {
  public static final String RUNS = "tidings_background_job_runs";
  public static final String LAST_SUCCESS = "tidings_background_job_last_success_timestamp_seconds";
  private static final Logger log = LoggerFactory.getLogger(BackgroundJobs.class);
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final MeterRegistry metrics;
  private final InstantSource clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      Thread.ofVirtual().name("background-jobs").factory());
  private final List<Scheduled> jobs = new ArrayList<>();
  private boolean closed;

  public BackgroundJobs(MeterRegistry metrics, InstantSource clock) {
    this.metrics = metrics;
    this.clock = clock;
  }

  /** Starts {@code job}'s rounds; closing the answer stops this job alone, closing this stops all. */
  public synchronized Running start(BackgroundJob job) {
    if (closed) throw new IllegalStateException("the background jobs are stopped");
    for (Scheduled running : jobs)
      if (running.job.name().equals(job.name()))
        throw new IllegalArgumentException("a job named " + job.name() + " runs already");
    var scheduled = new Scheduled(job);
    jobs.add(scheduled);
    scheduled.next(job.firstAfter());
    return () -> stop(scheduled);
  }

  /** A started job; closing it stops its rounds, the one in flight interrupted and waited for. */
  @FunctionalInterface
  public interface Running extends AutoCloseable {
    @Override
    void close();
  }

  /** One round of {@code job} now, on the caller's thread, elected, counted and logged as any. */
  public Outcome runOnce(BackgroundJob job) {
    Scheduled scheduled = null;
    synchronized (this) {
      for (Scheduled running : jobs) if (running.job.name().equals(job.name())) scheduled = running;
    }
    return (scheduled != null ? scheduled : new Scheduled(job)).round();
  }

  /** What one round came to. */
  public enum Outcome {
    SUCCEEDED,
    FAILED,
    SKIPPED;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private synchronized void stop(Scheduled scheduled) {
    jobs.remove(scheduled);
    scheduled.stop(STOP_WAIT);
  }

  /** Stops every job: no new round starts, a round in flight is interrupted and waited for a while. */
  @Override
  public void close() {
    List<Scheduled> stopping;
    synchronized (this) {
      if (closed) return;
      closed = true;
      stopping = List.copyOf(jobs);
      jobs.clear();
    }
    timer.shutdownNow();
    stopping.forEach(scheduled -> scheduled.cancel());
    stopping.forEach(scheduled -> scheduled.stop(STOP_WAIT));
  }

  /** One job as this node runs it. */
  private final class Scheduled {
    private final BackgroundJob job;
    private final AtomicLong lastSuccess = new AtomicLong(-1);
    private volatile boolean stopped;
    private @Nullable Thread running;
    private volatile @Nullable String lastFailure;

    Scheduled(BackgroundJob job) {
      this.job = job;
      Gauge.builder(
              LAST_SUCCESS, lastSuccess, last -> last.get() < 0 ? Double.NaN : last.get() / 1000.0)
          .description("When a background job last finished a round successfully on this node")
          .tag("job", job.name())
          .strongReference(true)
          .register(metrics);
    }

    void next(Duration after) {
      if (stopped) return;
      try {
        timer.schedule(this::startRound, Math.max(0, after.toMillis()), TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // the node is stopping
      }
    }

    private void startRound() {
      synchronized (this) {
        if (stopped) return;
        running = Thread.ofVirtual().name("job-" + job.name()).start(() -> {
          try {
            round();
          } finally {
            synchronized (this) {
              running = null;
            }
            next(job.every());
          }
        });
      }
    }

    Outcome round() {
      Outcome outcome;
      try {
        outcome = elected();
      } catch (Exception e) {
        // a round interrupted because the node stops is no failure worth a warning
        if (stopped) return Outcome.FAILED;
        if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        outcome = Outcome.FAILED;
        failed(e);
      }
      count(outcome);
      if (outcome == Outcome.SUCCEEDED) {
        lastSuccess.set(clock.millis());
        if (lastFailure != null) {
          log.info("background job {}: a round succeeded again", job.name());
          lastFailure = null;
        }
      }
      return outcome;
    }

    private Outcome elected() throws Exception {
      return switch (job.election()) {
        case Election.EveryNode _, Election.ComputeOnce _ -> body();
        case Election.AdvisoryLeader leader -> {
          Optional<Handle> held = take(leader);
          if (held.isEmpty()) yield Outcome.SKIPPED;
          try (Handle handle = held.get()) {
            try {
              yield body();
            } finally {
              handle
                  .createQuery("SELECT pg_advisory_unlock(:lock)")
                  .bind("lock", leader.lock().key())
                  .mapTo(Boolean.class)
                  .one();
            }
          }
        }
      };
    }

    private Outcome body() throws Exception {
      return job.body().run() == Election.Round.RAN ? Outcome.SUCCEEDED : Outcome.SKIPPED;
    }

    /** The leader's lock on a connection of its own, if no other node holds it now. */
    private Optional<Handle> take(Election.AdvisoryLeader leader) {
      Handle handle = leader.jdbi().open();
      try {
        boolean taken = handle
            .createQuery("SELECT pg_try_advisory_lock(:lock)")
            .bind("lock", leader.lock().key())
            .mapTo(Boolean.class)
            .one();
        if (taken) return Optional.of(handle);
        handle.close();
        return Optional.empty();
      } catch (RuntimeException e) {
        handle.close();
        throw e;
      }
    }

    private void failed(Exception e) {
      String kind = e.getClass().getName();
      if (kind.equals(lastFailure)) {
        log.debug("background job {}: a round failed again: {}", job.name(), e.toString());
        return;
      }
      lastFailure = kind;
      log.warn(
          "background job {}: a round failed; the next comes in {} (the same failure again is"
              + " not logged until a round succeeds)",
          job.name(),
          job.every(),
          e);
    }

    private void count(Outcome outcome) {
      Counter.builder(RUNS)
          .description("Rounds of the node's background jobs, by job and outcome")
          .tag("job", job.name())
          .tag("outcome", outcome.label())
          .register(metrics)
          .increment();
    }

    void cancel() {
      Thread thread;
      synchronized (this) {
        stopped = true;
        thread = running;
      }
      if (thread != null) thread.interrupt();
    }

    void stop(Duration wait) {
      cancel();
      Thread thread;
      synchronized (this) {
        thread = running;
      }
      if (thread == null) return;
      try {
        if (!thread.join(wait))
          log.warn(
              "background job {}: still running after {}; stopping without it", job.name(), wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

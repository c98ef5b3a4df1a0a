package dev.tidings.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BackgroundJobsTest {
  private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final BackgroundJobs jobs = new BackgroundJobs(metrics, InstantSource.fixed(NOW));

  private double runs(String job, String outcome) {
    Counter counter = metrics
        .find(BackgroundJobs.RUNS)
        .tag("job", job)
        .tag("outcome", outcome)
        .counter();
    return counter == null ? 0 : counter.count();
  }

  private static BackgroundJob job(String name, Election election, BackgroundJob.Body body) {
    return new BackgroundJob(name, Duration.ZERO, Duration.ofMillis(5), election, body);
  }

  @Test
  void a_failing_round_is_counted_and_the_next_rounds_still_come() throws Exception {
    var rounds = new AtomicInteger();
    var laterRounds = new CountDownLatch(3);
    try (jobs) {
      jobs.start(job("flaky", Election.everyNode(), () -> {
        if (rounds.incrementAndGet() <= 2) throw new IllegalStateException("database away");
        laterRounds.countDown();
        return Election.Round.RAN;
      }));
      assertThat(laterRounds.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(runs("flaky", "failed")).isEqualTo(2);
    assertThat(runs("flaky", "succeeded")).isGreaterThanOrEqualTo(3);
    assertThat(
            metrics.get(BackgroundJobs.LAST_SUCCESS).tag("job", "flaky").gauge().value())
        .isEqualTo(NOW.getEpochSecond());
  }

  @Test
  void a_round_another_node_covered_is_counted_as_skipped_and_leaves_no_success() {
    var job = job("feed", Election.computeOnce(), () -> Election.Round.ELSEWHERE);
    assertThat(jobs.runOnce(job)).isEqualTo(BackgroundJobs.Outcome.SKIPPED);
    assertThat(runs("feed", "skipped")).isEqualTo(1);
    assertThat(
            metrics.get(BackgroundJobs.LAST_SUCCESS).tag("job", "feed").gauge().value())
        .isNaN();
  }

  @Test
  void closing_interrupts_the_round_in_flight_and_starts_no_other() throws Exception {
    var started = new CountDownLatch(1);
    var rounds = new AtomicInteger();
    var interrupted = new CountDownLatch(1);
    jobs.start(job("slow", Election.everyNode(), () -> {
      rounds.incrementAndGet();
      started.countDown();
      try {
        Thread.sleep(Duration.ofMinutes(1));
      } catch (InterruptedException e) {
        interrupted.countDown();
        throw e;
      }
      return Election.Round.RAN;
    }));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    jobs.close();
    assertThat(interrupted.await(1, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(50);
    assertThat(rounds.get()).isEqualTo(1);
    assertThatThrownBy(
            () -> jobs.start(job("late", Election.everyNode(), () -> Election.Round.RAN)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closing_one_job_leaves_the_others_running() throws Exception {
    var other = new CountDownLatch(3);
    var stoppedRounds = new AtomicInteger();
    try (jobs) {
      AutoCloseable stopped = jobs.start(job("stopped", Election.everyNode(), () -> {
        stoppedRounds.incrementAndGet();
        return Election.Round.RAN;
      }));
      stopped.close();
      int afterStop = stoppedRounds.get();
      jobs.start(job("other", Election.everyNode(), () -> {
        other.countDown();
        return Election.Round.RAN;
      }));
      assertThat(other.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(stoppedRounds.get()).isEqualTo(afterStop);
    }
  }

  @Test
  void two_jobs_of_one_name_and_hostile_names_are_refused() {
    try (jobs) {
      jobs.start(job("twice", Election.everyNode(), () -> Election.Round.RAN));
      assertThatThrownBy(
              () -> jobs.start(job("twice", Election.everyNode(), () -> Election.Round.RAN)))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> job("Bad Name{}", Election.everyNode(), () -> Election.Round.RAN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

package dev.tidings.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.AdvisoryLock;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** The advisory-lock election on real PostgreSQL: one node's round at a time, the others skip. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class BackgroundJobsIT {
  private Database database;

  @BeforeAll
  void open() {
    database = TestDatabases.real();
  }

  @AfterAll
  void close() {
    database.close();
  }

  @Test
  void a_round_is_skipped_while_another_node_holds_the_lock_and_runs_once_it_is_free() {
    var metrics = new SimpleMeterRegistry();
    var rounds = new AtomicInteger();
    var job = BackgroundJob.of(
        "leader-only",
        Duration.ZERO,
        Duration.ofMinutes(1),
        Election.advisoryLeader(database.jdbi(), AdvisoryLock.RETENTION_RUN),
        rounds::incrementAndGet);
    try (var jobs = new BackgroundJobs(metrics, InstantSource.system())) {
      try (Handle otherNode = database.jdbi().open()) {
        otherNode
            .createQuery("SELECT count(pg_advisory_lock(:lock))")
            .bind("lock", AdvisoryLock.RETENTION_RUN.key())
            .mapTo(Long.class)
            .one();
        assertThat(jobs.runOnce(job)).isEqualTo(BackgroundJobs.Outcome.SKIPPED);
        assertThat(rounds.get()).isZero();
      }
      assertThat(jobs.runOnce(job)).isEqualTo(BackgroundJobs.Outcome.SUCCEEDED);
      assertThat(rounds.get()).isEqualTo(1);
      // the round gave the lock back: another node may take it now
      try (Handle otherNode = database.jdbi().open()) {
        assertThat(otherNode
                .createQuery("SELECT pg_try_advisory_lock(:lock)")
                .bind("lock", AdvisoryLock.RETENTION_RUN.key())
                .mapTo(Boolean.class)
                .one())
            .isTrue();
      }
    }
    assertThat(metrics
            .get(BackgroundJobs.RUNS)
            .tag("job", "leader-only")
            .tag("outcome", "skipped")
            .counter()
            .count())
        .isEqualTo(1);
  }
}

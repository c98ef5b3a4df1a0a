package dev.tidings.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.coordination.MutableClock;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.jobs.Election;
import dev.tidings.storage.Expiry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The retention job over stand-in expiries: lifetimes, batches, counting, the run lock, stopping. */
@Timeout(30)
class RetentionTest {
  private final MutableClock clock = new MutableClock();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  /** A table of rows with times, removed oldest first as an owner's expiry does. */
  private static final class Rows implements Expiry {
    private final String table;
    private final List<Instant> rows = new ArrayList<>();
    private final List<Instant> asked = new ArrayList<>();
    private final AtomicInteger steps = new AtomicInteger();

    Rows(String table) {
      this.table = table;
    }

    @Override
    public String table() {
      return table;
    }

    @Override
    public synchronized Removed removeSome(Instant before, int batch) {
      steps.incrementAndGet();
      asked.add(before);
      List<Instant> expired =
          rows.stream().filter(at -> at.isBefore(before)).sorted().limit(batch).toList();
      expired.forEach(rows::remove);
      return Removed.ofBatch(expired.size(), batch);
    }
  }

  private double removed(String table) {
    return metrics.get(Retention.REMOVED).tag("table", table).counter().count();
  }

  @Test
  void each_table_loses_exactly_what_is_older_than_its_lifetime_in_batches_and_is_counted() {
    Instant now = clock.instant();
    var messages = new Rows("message_status");
    for (int day = 0; day < 25; day++) messages.rows.add(now.minus(Duration.ofDays(day * 10L)));
    var events = new Rows("activity_events");
    for (int day = 0; day < 10; day++) events.rows.add(now.minus(Duration.ofDays(day * 100L)));
    var retention = new Retention(
        List.of(
            new Expiring(messages, Duration.ofDays(180)),
            new Expiring(events, Duration.ofDays(400))),
        clock,
        metrics,
        3);

    Retention.Run run = retention.runOnce();

    // days 190..240 are past 180 days; 500..900 past 400
    assertThat(run.removed())
        .containsEntry("message_status", 6L)
        .containsEntry("activity_events", 5L);
    assertThat(messages.rows)
        .hasSize(19)
        .allMatch(at -> !at.isBefore(now.minus(Duration.ofDays(180))));
    assertThat(events.rows).hasSize(5);
    assertThat(messages.asked).containsOnly(now.minus(Duration.ofDays(180)));
    assertThat(messages.steps.get())
        .as("6 rows in batches of 3, then one that finds fewer")
        .isEqualTo(3);
    assertThat(removed("message_status")).isEqualTo(6.0);
    assertThat(removed("activity_events")).isEqualTo(5.0);
    assertThat(metrics.get(Retention.LAST_RUN).gauge().value()).isEqualTo(clock.millis() / 1000.0);

    assertThat(retention.runOnce().total()).as("a second run finds nothing").isZero();
  }

  @Test
  void stopping_its_job_stops_a_long_removal_between_two_steps_and_quietly() throws Exception {
    var started = new CountDownLatch(1);
    var steps = new AtomicInteger();
    Expiry endless = new Expiry() {
      @Override
      public String table() {
        return "activity_events";
      }

      @Override
      public Removed removeSome(Instant before, int batch) {
        steps.incrementAndGet();
        started.countDown();
        return new Removed(batch, false);
      }
    };
    var retention =
        new Retention(List.of(new Expiring(endless, Duration.ofDays(1))), clock, metrics, 10);
    var jobs = new BackgroundJobs(metrics, clock);
    jobs.start(retention.job(Duration.ofMillis(1), Election.everyNode()));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    long before = System.nanoTime();
    jobs.close();
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(2));
    int stoppedAt = steps.get();
    Thread.sleep(50);
    assertThat(steps.get()).as("no step after the close").isEqualTo(stoppedAt);
    assertThat(removed("activity_events")).isEqualTo(stoppedAt * 10.0);
  }

  @Test
  void a_table_whose_removal_fails_leaves_the_others_their_turn_and_is_named() {
    Expiry broken = new Expiry() {
      @Override
      public String table() {
        return "message_status";
      }

      @Override
      public Removed removeSome(Instant before, int batch) {
        throw new IllegalStateException("canceling statement due to lock timeout");
      }
    };
    var events = new Rows("activity_events");
    events.rows.add(clock.instant().minus(Duration.ofDays(500)));
    var retention = new Retention(
        List.of(
            new Expiring(broken, Duration.ofDays(180)), new Expiring(events, Duration.ofDays(400))),
        clock,
        metrics,
        100);

    Retention.Run run = retention.runOnce();

    assertThat(run.failed()).containsExactly("message_status");
    assertThat(run.removed())
        .containsEntry("activity_events", 1L)
        .containsEntry("message_status", 0L);
    assertThat(events.rows).isEmpty();
  }

  @Test
  void a_lifetime_must_be_longer_than_zero() {
    assertThatThrownBy(() -> new Expiring(new Rows("x"), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Expiry.Removed.ofBatch(99, 100).done()).isTrue();
    assertThat(Expiry.Removed.ofBatch(100, 100).done()).isFalse();
  }
}

package dev.tidings.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ComputeOnce} must do. Durations are short because the Redis run really waits them;
 * the in-process run moves a fake clock instead.
 */
public abstract class ComputeOnceContract {
  protected static final Duration LOCK_TTL = Duration.ofMillis(300);
  protected static final Timings TIMINGS =
      new Timings(LOCK_TTL, Duration.ofSeconds(2), Duration.ofSeconds(5));
  protected static final Duration BOUND = Duration.ofSeconds(15);
  /** How far past its maxWait a waiter may return: scheduling on a loaded 2-core machine. */
  protected static final Duration MAX_WAIT_MARGIN = Duration.ofMillis(150);

  protected ComputeOnce once;

  /** A fresh implementation with nothing stored. */
  protected abstract ComputeOnce create();

  /** Lets {@code duration} pass for the implementation's TTLs. */
  protected abstract void advance(Duration duration);

  @BeforeEach
  void createImplementation() {
    once = create();
  }

  protected static String uniqueKey() {
    return "email-" + UUID.randomUUID();
  }

  @Test
  void a_single_caller_computes_and_later_callers_join_without_computing() {
    String key = uniqueKey();

    Outcome first = once.computeOnce(key, TIMINGS, () -> "products 1,2,3");
    Outcome second = once.computeOnce(key, TIMINGS, () -> {
      throw new AssertionError("must not compute again");
    });

    assertThat(first).isInstanceOfSatisfying(Outcome.Computed.class, computed -> {
      assertThat(computed.value()).isEqualTo("products 1,2,3");
      assertThat(computed.fence()).isPositive();
    });
    assertThat(second).isEqualTo(new Outcome.Joined("products 1,2,3"));
    assertThat(once.peek(key)).contains("products 1,2,3");
  }

  @Test
  void peek_neither_waits_nor_computes() {
    assertThat(once.peek(uniqueKey())).isEmpty();
  }

  @Test
  void fifty_concurrent_contenders_compute_once_and_all_get_the_same_value() {
    String key = uniqueKey();
    AtomicInteger computations = new AtomicInteger();
    try (Race race = new Race()) {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        futures.add(race.add(() -> once.computeOnce(key, TIMINGS, () -> {
          computations.incrementAndGet();
          sleep(Duration.ofMillis(50)); // long enough for the others to pile up behind the lock
          return "value-" + UUID.randomUUID();
        })));
      }
      List<Outcome> outcomes = race.all(futures, BOUND);

      assertThat(computations).hasValue(1);
      assertThat(outcomes).filteredOn(Outcome.Computed.class::isInstance).hasSize(1);
      assertThat(outcomes.stream().map(Outcome::valueIfAny).distinct().toList())
          .singleElement()
          .satisfies(value -> assertThat(value).isPresent());
    }
  }

  @Test
  void many_keys_at_once_are_computed_once_each() {
    Map<String, AtomicInteger> computations = new ConcurrentHashMap<>();
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < 20; k++) keys.add(uniqueKey());
    try (Race race = new Race()) {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (String key : keys) {
        for (int i = 0; i < 5; i++) {
          futures.add(race.add(() -> once.computeOnce(key, TIMINGS, () -> {
            computations.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            return "value of " + key;
          })));
        }
      }
      List<Outcome> outcomes = race.all(futures, BOUND);

      assertThat(computations)
          .hasSize(20)
          .allSatisfy((key, count) -> assertThat(count).hasValue(1));
      for (int i = 0; i < outcomes.size(); i++) {
        assertThat(outcomes.get(i).valueIfAny()).contains("value of " + keys.get(i / 5));
      }
    }
  }

  /** What "p99 wait" must stay under with a thousand callers at once on the 2-core build machine. */
  protected static final Duration P99_BOUND = Duration.ofMillis(1500);

  @Test
  void a_thousand_concurrent_callers_over_two_hundred_keys_compute_once_per_key() {
    int keyCount = 200;
    int callersPerKey = 5;
    // a lock long enough that no winner loses it to a loaded machine's scheduling: a takeover is
    // right then, but this test counts computations of live winners
    Timings crowdTimings =
        new Timings(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(12));
    Map<String, AtomicInteger> computations = new ConcurrentHashMap<>();
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < keyCount; k++) keys.add(uniqueKey());
    long[] took = new long[keyCount * callersPerKey];
    try (Race race = new Race()) {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (int k = 0; k < keyCount; k++) {
        String key = keys.get(k);
        for (int i = 0; i < callersPerKey; i++) {
          int call = k * callersPerKey + i;
          futures.add(race.add(() -> {
            long started = System.nanoTime();
            Outcome outcome = once.computeOnce(key, crowdTimings, () -> {
              computations.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
              sleep(Duration.ofMillis(20)); // the others pile up behind the lock meanwhile
              return "value of " + key;
            });
            took[call] = System.nanoTime() - started;
            return outcome;
          }));
        }
      }
      List<Outcome> outcomes = race.all(futures, BOUND);

      assertThat(computations)
          .hasSize(keyCount)
          .allSatisfy(
              (key, count) -> assertThat(count).as("computations of %s", key).hasValue(1));
      for (int i = 0; i < outcomes.size(); i++) {
        assertThat(outcomes.get(i).valueIfAny())
            .contains("value of " + keys.get(i / callersPerKey));
      }
      assertThat(outcomes).filteredOn(Outcome.Computed.class::isInstance).hasSize(keyCount);
      long[] sorted = took.clone();
      Arrays.sort(sorted);
      Duration p99 = Duration.ofNanos(sorted[(int) Math.ceil(sorted.length * 0.99) - 1]);
      assertThat(p99).as("p99 time of a call").isLessThan(P99_BOUND);
    }
  }

  @Test
  void a_failing_winner_wakes_the_waiters_at_once_long_before_its_lock_would_expire()
      throws Exception {
    String key = uniqueKey();
    Timings longLock =
        new Timings(Duration.ofSeconds(20), Duration.ofSeconds(40), Duration.ofSeconds(15));
    CountDownLatch winnerComputing = new CountDownLatch(1);
    CountDownLatch failNow = new CountDownLatch(1);
    AtomicInteger computations = new AtomicInteger();
    try (Race race = new Race()) {
      Future<Outcome> winner = race.start(() -> once.computeOnce(key, longLock, () -> {
        winnerComputing.countDown();
        await(failNow);
        throw new IllegalStateException("recommender down");
      }));
      assertThat(winnerComputing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      List<Future<Outcome>> waiters = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        waiters.add(race.start(() -> once.computeOnce(key, longLock, () -> {
          computations.incrementAndGet();
          return "taken over";
        })));
      }
      sleep(Duration.ofMillis(100)); // let them wait

      long failed = System.nanoTime();
      failNow.countDown();
      List<Outcome> outcomes = race.all(waiters, BOUND);
      Duration tookOver = Duration.ofNanos(System.nanoTime() - failed);

      assertThatThrownBy(() -> winner.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(IllegalStateException.class);
      assertThat(computations).hasValue(1);
      assertThat(outcomes)
          .allSatisfy(outcome -> assertThat(outcome.valueIfAny()).contains("taken over"));
      assertThat(tookOver)
          .as("from the failure to every waiter's answer; the lock would have held 20 s")
          .isLessThan(Duration.ofSeconds(2));
    }
  }

  @Test
  void the_value_expires_after_its_ttl_and_is_computed_again_under_a_higher_fence() {
    String key = uniqueKey();
    var first = (Outcome.Computed) once.computeOnce(key, TIMINGS, () -> "old");

    advance(TIMINGS.valueTtl().plusMillis(200));

    assertThat(once.peek(key)).isEmpty();
    assertThat(once.computeOnce(key, TIMINGS, () -> "new"))
        .isInstanceOfSatisfying(Outcome.Computed.class, second -> {
          assertThat(second.value()).isEqualTo("new");
          assertThat(second.fence()).isGreaterThan(first.fence());
        });
  }

  @Test
  void when_the_winner_throws_another_contender_computes_and_everyone_gets_a_value()
      throws Exception {
    String key = uniqueKey();
    CountDownLatch winnerComputing = new CountDownLatch(1);
    CountDownLatch failNow = new CountDownLatch(1);
    AtomicInteger computations = new AtomicInteger();
    try (Race race = new Race()) {
      Future<Outcome> winner = race.start(() -> once.computeOnce(key, TIMINGS, () -> {
        winnerComputing.countDown();
        await(failNow);
        throw new IllegalStateException("recommender down");
      }));
      assertThat(winnerComputing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      List<Future<Outcome>> waiters = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        waiters.add(race.start(() -> once.computeOnce(key, TIMINGS, () -> {
          computations.incrementAndGet();
          return "second try";
        })));
      }

      failNow.countDown();
      advance(LOCK_TTL.plusMillis(100));

      assertThatThrownBy(() -> winner.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(IllegalStateException.class);
      List<Outcome> outcomes = race.all(waiters, BOUND);
      assertThat(computations).hasValue(1);
      assertThat(outcomes)
          .allSatisfy(outcome -> assertThat(outcome.valueIfAny()).contains("second try"));
    }
  }

  @Test
  void a_hung_winner_is_taken_over_after_the_lock_ttl_and_its_late_write_is_refused()
      throws InterruptedException {
    String key = uniqueKey();
    CountDownLatch winnerComputing = new CountDownLatch(1);
    CountDownLatch wakeUp = new CountDownLatch(1);
    AtomicInteger computations = new AtomicInteger();
    try (Race race = new Race()) {
      Future<Outcome> stale = race.start(() -> once.computeOnce(key, TIMINGS, () -> {
        winnerComputing.countDown();
        await(wakeUp); // a GC pause or a stalled network past the lock TTL
        return "stale";
      }));
      assertThat(winnerComputing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      List<Future<Outcome>> waiters = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        waiters.add(race.start(() -> once.computeOnce(key, TIMINGS, () -> {
          computations.incrementAndGet();
          return "fresh";
        })));
      }

      advance(LOCK_TTL.plusMillis(100));
      List<Outcome> outcomes = race.all(waiters, BOUND);
      wakeUp.countDown();

      assertThat(computations).hasValue(1);
      assertThat(outcomes)
          .allSatisfy(outcome -> assertThat(outcome.valueIfAny()).contains("fresh"));
      assertThat(Race.result(stale, BOUND)).isEqualTo(new Outcome.Joined("fresh"));
      assertThat(once.peek(key)).contains("fresh");
    }
  }

  @Test
  void a_waiter_whose_max_wait_passes_times_out() throws InterruptedException {
    String key = uniqueKey();
    Timings slowLock =
        new Timings(Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(10));
    Timings impatient =
        new Timings(Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMillis(200));
    CountDownLatch winnerComputing = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    try (Race race = new Race()) {
      Future<Outcome> winner = race.start(() -> once.computeOnce(key, slowLock, () -> {
        winnerComputing.countDown();
        await(finish);
        return "late";
      }));
      assertThat(winnerComputing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      Outcome waited =
          Race.result(race.start(() -> once.computeOnce(key, impatient, () -> "never")), BOUND);
      finish.countDown();

      assertThat(waited)
          .isInstanceOfSatisfying(
              Outcome.TimedOut.class,
              timedOut -> assertThat(timedOut.waited())
                  .isBetween(Duration.ofMillis(200), Duration.ofMillis(200).plus(MAX_WAIT_MARGIN)));
      assertThat(waited.valueIfAny()).isEmpty();
      assertThat(Race.result(winner, BOUND)).isInstanceOf(Outcome.Computed.class);
    }
  }

  @Test
  void timings_reject_a_value_ttl_not_longer_than_the_lock_ttl() {
    assertThatThrownBy(
            () -> new Timings(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("valueTtl");
  }

  protected static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  protected static void await(CountDownLatch latch) {
    try {
      if (!latch.await(BOUND.toMillis(), TimeUnit.MILLISECONDS))
        throw new IllegalStateException("latch not released in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.ComputeOnceContract;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.Race;
import dev.tidings.testing.RealServers;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedisComputeOnceIT extends ComputeOnceContract {
  private RedisTestServer redis;

  @BeforeAll
  static void redisIsThere() {
    RealServers.requireRedis();
  }

  @Override
  protected ComputeOnce create() {
    redis = new RedisTestServer();
    return redis.coordination.computeOnce();
  }

  @Override
  protected void advance(Duration duration) {
    sleep(duration);
  }

  @AfterEach
  void cleanUp() {
    redis.close();
  }

  @Test
  void every_key_written_has_a_ttl() throws InterruptedException {
    once.computeOnce(uniqueKey(), TIMINGS, () -> "published");
    assertThatThrownBy(() -> once.computeOnce(uniqueKey(), TIMINGS, () -> {
          throw new IllegalStateException("failed winner");
        }))
        .isInstanceOf(IllegalStateException.class);
    CountDownLatch computing = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    try (Race race = new Race()) {
      Future<Outcome> hung = race.start(() -> once.computeOnce(uniqueKey(), TIMINGS, () -> {
        computing.countDown();
        await(finish);
        return "late";
      }));
      assertThat(computing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      redis.assertEveryKeyHasATtl(); // including the hung winner's lock and fence counter
      finish.countDown();
      Race.result(hung, BOUND);
    }
    redis.assertEveryKeyHasATtl();
  }

  @Test
  void waiters_blocked_on_one_key_do_not_delay_commands_on_another() throws InterruptedException {
    String blockedKey = uniqueKey();
    Timings slowLock =
        new Timings(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(10));
    CountDownLatch computing = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    try (Race race = new Race()) {
      Future<Outcome> winner = race.start(() -> once.computeOnce(blockedKey, slowLock, () -> {
        computing.countDown();
        await(finish);
        return "slow";
      }));
      assertThat(computing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      List<Future<Outcome>> waiters = new ArrayList<>();
      for (int i = 0; i < 4; i++)
        waiters.add(race.start(() -> once.computeOnce(blockedKey, slowLock, () -> "never")));
      sleep(Duration.ofMillis(200)); // let them wait

      long started = System.nanoTime();
      Outcome other = once.computeOnce(uniqueKey(), TIMINGS, () -> "quick");
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      assertThat(other).isInstanceOf(Outcome.Computed.class);
      assertThat(took).isLessThan(Duration.ofMillis(500));
      finish.countDown();
      assertThat(race.all(waiters, BOUND))
          .allSatisfy(outcome -> assertThat(outcome).isEqualTo(new Outcome.Joined("slow")));
      assertThat(Race.result(winner, BOUND)).isInstanceOf(Outcome.Computed.class);
    }
  }

  @Test
  void redis_sees_at_most_two_commands_per_key_per_node_however_many_callers_wait()
      throws InterruptedException {
    int keyCount = 100;
    int callersPerKeyPerNode = 8;
    var commandsA = new LongAdder();
    var commandsB = new LongAdder();
    List<ComputeOnce> nodes = List.of(
        redis.anotherNode(counting(commandsA)).computeOnce(),
        redis.anotherNode(counting(commandsB)).computeOnce());
    Map<String, AtomicInteger> computations = new ConcurrentHashMap<>();
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < keyCount; k++) keys.add(uniqueKey());
    commandsA.reset();
    commandsB.reset();
    try (Race race = new Race()) {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (String key : keys) {
        for (int i = 0; i < 2 * callersPerKeyPerNode; i++) {
          ComputeOnce node = nodes.get(i % 2);
          futures.add(race.add(() -> node.computeOnce(key, TIMINGS, () -> {
            computations.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
            sleep(Duration.ofMillis(20));
            return "value of " + key;
          })));
        }
      }
      List<Outcome> outcomes = race.all(futures, BOUND);

      assertThat(computations)
          .hasSize(keyCount)
          .allSatisfy((key, count) -> assertThat(count).hasValue(1));
      for (int i = 0; i < outcomes.size(); i++) {
        assertThat(outcomes.get(i).valueIfAny())
            .contains("value of " + keys.get(i / (2 * callersPerKeyPerNode)));
      }
    }
    // The winner's node: acquire and publish. The other node: one acquire; the value comes with the
    // notice. Eight callers per key on each node would have sent sixteen or more without sharing.
    assertThat(commandsA.sum() + commandsB.sum())
        .as("commands of both nodes for %d keys", keyCount)
        .isLessThanOrEqualTo(3L * keyCount);
    assertThat(commandsA.sum()).isLessThanOrEqualTo(2L * keyCount);
    assertThat(commandsB.sum()).isLessThanOrEqualTo(2L * keyCount);
  }

  private static CommandListener counting(LongAdder commands) {
    return new CommandListener() {
      @Override
      public void commandStarted(CommandStartedEvent event) {
        commands.increment();
      }
    };
  }

  @Test
  void a_stale_winner_is_fenced_out_after_the_fence_counter_was_lost() throws Exception {
    String key = uniqueKey();
    staleWinnerIsRefusedAfter(key, () -> redis.delete(redis.prefix + "co:{" + key + "}:fence"));
  }

  @Test
  void a_stale_winner_is_fenced_out_after_redis_lost_every_key() throws Exception {
    staleWinnerIsRefusedAfter(uniqueKey(), redis::deleteAll); // a restart without persistence
  }

  /**
   * Node A wins and stalls; {@code loss} happens and A's lock is gone; node B wins and stalls; A wakes
   * and publishes, then B. A must be refused and B accepted, under a higher fence. (With per-key
   * counters that restart at 1, A and B held the same lock value, so A's write went in and B's was
   * refused.)
   */
  private void staleWinnerIsRefusedAfter(String key, Runnable loss) throws Exception {
    ComputeOnce nodeA = once;
    ComputeOnce nodeB = redis.anotherNode().computeOnce();
    Timings timings =
        new Timings(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(10));
    CountDownLatch aComputing = new CountDownLatch(1);
    CountDownLatch aWakes = new CountDownLatch(1);
    CountDownLatch bComputing = new CountDownLatch(1);
    CountDownLatch bWakes = new CountDownLatch(1);
    try (Race race = new Race()) {
      Future<Outcome> a = race.start(() -> nodeA.computeOnce(key, timings, () -> {
        aComputing.countDown();
        await(aWakes);
        return "stale";
      }));
      assertThat(aComputing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      String lockOfA = redis.get(redis.prefix + "co:{" + key + "}:lock");
      assertThat(lockOfA).as("A's lock, fence:token").contains(":");
      long fenceOfA = Long.parseLong(lockOfA.substring(0, lockOfA.indexOf(':')));
      loss.run();
      redis.delete(redis.prefix + "co:{" + key + "}:lock"); // A's lock expired meanwhile
      Future<Outcome> b = race.start(() -> nodeB.computeOnce(key, timings, () -> {
        bComputing.countDown();
        await(bWakes);
        return "fresh";
      }));
      assertThat(bComputing.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      aWakes.countDown();
      sleep(Duration.ofMillis(200)); // A publishes (refused) and waits for B
      bWakes.countDown();

      Outcome fromB = Race.result(b, BOUND);
      assertThat(fromB)
          .isInstanceOfSatisfying(
              Outcome.Computed.class, computed -> assertThat(computed.value()).isEqualTo("fresh"));
      assertThat(Race.result(a, BOUND)).isEqualTo(new Outcome.Joined("fresh"));
      assertThat(once.peek(key)).contains("fresh");
    }
  }

  @Test
  void reports_no_problem_while_redis_answers() {
    assertThat(redis.coordination.problem()).isEmpty();
  }

  @Test
  void connecting_where_no_redis_listens_fails_clearly() {
    assertThatThrownBy(() ->
            RedisCoordination.connect(URI.create("redis://127.0.0.1:1"), new SimpleMeterRegistry()))
        .isInstanceOf(CoordinationException.class)
        .hasMessageContaining("127.0.0.1:1");
  }
}

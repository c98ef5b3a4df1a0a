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
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
      sleep(Duration.ofMillis(200)); // let them block in BLMOVE

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
  void reports_no_problem_while_redis_answers() {
    assertThat(redis.coordination.problem()).isEmpty();
  }

  @Test
  void connecting_where_no_redis_listens_fails_clearly() {
    assertThatThrownBy(() -> RedisCoordination.connect(URI.create("redis://127.0.0.1:1")))
        .isInstanceOf(CoordinationException.class)
        .hasMessageContaining("127.0.0.1:1");
  }
}

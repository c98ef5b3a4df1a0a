package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.RateLimiter.Limit;
import dev.tidings.testing.PrivateRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis dies under a {@link RedisCoordination}: a private redis-server on a spare port, killed with
 * SIGKILL and started again on the same port (empty: it has no persistence). The shared Redis is never
 * touched.
 */
class RedisFaultIT {
  private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);
  /** What "fails fast" allows: the command timeout, a script reload and scheduling noise. */
  private static final Duration FAST = COMMAND_TIMEOUT.multipliedBy(3);

  private static final Limit LIMIT = new Limit(100, 10);

  private final String prefix = "fault-" + UUID.randomUUID() + ":";
  private PrivateRedis server;
  private RedisCoordination redis;
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeEach
  void startPrivateRedis() {
    server = PrivateRedis.start();
    redis = RedisCoordination.connect(
        server.uri(), new RedisCoordination.Options(prefix, COMMAND_TIMEOUT));
  }

  @AfterEach
  void stopEverything() {
    threads.shutdownNow();
    try {
      if (redis != null) redis.close();
    } finally {
      server.close();
    }
  }

  @Test
  void while_redis_is_down_every_call_fails_fast_and_problem_says_so() {
    assertThat(redis.problem()).isEmpty();
    server.kill();

    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      assertThat(within(FAST, redis::problem))
          .hasValueSatisfying(problem -> assertThat(problem).contains("Redis"));
      var computed = new AtomicBoolean();
      failsFast(() -> redis.computeOnce().computeOnce(key(), timings(Duration.ofSeconds(5)), () -> {
        computed.set(true);
        return "must not be computed without the lock";
      }));
      assertThat(computed)
          .as("compute ran although the lock could not be taken")
          .isFalse();
      failsFast(() -> redis.computeOnce().peek(key()));
      failsFast(() -> redis.countdown().start(key(), 3, Duration.ofMinutes(1)));
      failsFast(() -> redis.countdown().claim(key(), 0, Duration.ofSeconds(10)));
      failsFast(() -> redis.countdown().remaining(key()));
      failsFast(() -> redis.rateLimiter().tryAcquire(key(), LIMIT, 1));
    });
  }

  @Test
  void a_waiter_blocked_in_blmove_when_redis_dies_gets_an_error_or_times_out_within_its_bound()
      throws Exception {
    String key = key();
    Duration maxWait = Duration.ofSeconds(2);
    Timings timings = timings(maxWait);
    var computing = new CountDownLatch(1);
    var finish = new CountDownLatch(1);
    Future<Outcome> winner =
        threads.submit(() -> redis.computeOnce().computeOnce(key, timings, () -> {
          computing.countDown();
          await(finish);
          return "computed while Redis died";
        }));
    assertThat(computing.await(5, TimeUnit.SECONDS))
        .as("the winner started computing")
        .isTrue();
    long started = System.nanoTime();
    Future<Outcome> waiter = threads.submit(
        () -> redis.computeOnce().computeOnce(key, timings, () -> "a second computation"));
    try (RedisClient inspector = RedisClient.create(server.uri().toString());
        StatefulRedisConnection<String, String> look = inspector.connect()) {
      assertThat(poll(Duration.ofSeconds(5), () -> look.sync().clientList().contains("cmd=blmove")))
          .as("the waiter blocks in BLMOVE")
          .isTrue();
    }

    server.kill();

    // The waiter's bound: its maxWait, plus the command timeout its blocking connection allows on
    // top.
    Duration bound = maxWait.plus(COMMAND_TIMEOUT).plus(Duration.ofSeconds(1));
    assertTimeoutPreemptively(bound, () -> {
      try {
        assertThat(waiter.get()).isInstanceOf(Outcome.TimedOut.class);
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(CoordinationException.class);
      }
    });
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(bound.plusSeconds(1));

    finish.countDown();
    assertTimeoutPreemptively(
        FAST,
        () -> assertThatThrownBy(winner::get)
            .as("a winner that cannot publish must not report a value as computed")
            .hasCauseInstanceOf(CoordinationException.class));
  }

  @Test
  void after_a_restart_the_same_instance_works_again_by_itself() {
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      assertThat(redis.rateLimiter().tryAcquire(key(), LIMIT, 1).granted()).isTrue();
      server.kill();
      failsFast(() -> redis.rateLimiter().tryAcquire(key(), LIMIT, 1));
      assertThat(redis.problem()).isPresent();

      server.restart(); // empty: Redis also forgot the scripts, which must be loaded again

      assertThat(poll(Duration.ofSeconds(20), () -> redis.problem().isEmpty()))
          .as("problem() clears once Lettuce reconnected")
          .isTrue();
      String key = key();
      assertThat(
              redis.computeOnce().computeOnce(key, timings(Duration.ofSeconds(2)), () -> "after"))
          .isInstanceOf(Outcome.Computed.class);
      assertThat(redis.computeOnce().peek(key)).contains("after");
      assertThat(redis.countdown().start(key, 2, Duration.ofMinutes(1))).isTrue();
      assertThat(redis.countdown().claim(key, 0, Duration.ofSeconds(10))).isPresent();
      assertThat(redis.rateLimiter().tryAcquire(key, LIMIT, 1).granted()).isTrue();
    });
  }

  private String key() {
    return UUID.randomUUID().toString();
  }

  private static Timings timings(Duration maxWait) {
    return new Timings(Duration.ofSeconds(10), Duration.ofMinutes(1), maxWait);
  }

  /** The call throws {@link CoordinationException} (never returns an answer) within {@link #FAST}. */
  private static void failsFast(ThrowingCallable call) {
    long started = System.nanoTime();
    assertTimeoutPreemptively(
        FAST.plusSeconds(1),
        () -> assertThatThrownBy(call).isInstanceOf(CoordinationException.class));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThanOrEqualTo(FAST);
  }

  private static Optional<String> within(
      Duration bound, java.util.function.Supplier<Optional<String>> problem) {
    long started = System.nanoTime();
    Optional<String> answer = problem.get();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThanOrEqualTo(bound);
    return answer;
  }

  private static boolean poll(Duration bound, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) return true;
      Thread.sleep(50);
    }
    return condition.getAsBoolean();
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("never released");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.RateLimiter.Limit;
import dev.tidings.testing.PrivateRedis;
import dev.tidings.testing.TcpProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
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

  /** How far past its maxWait a call may return: scheduling on a loaded 2-core machine. */
  private static final Duration MAX_WAIT_MARGIN = Duration.ofMillis(150);

  private static final Limit LIMIT = new Limit(100, 10);

  private final String prefix = "fault-" + UUID.randomUUID() + ":";
  private PrivateRedis server;
  private RedisCoordination redis;
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeEach
  void startPrivateRedis() {
    server = PrivateRedis.start();
    redis = RedisCoordination.connect(
        server.uri(),
        new RedisCoordination.Options(prefix, COMMAND_TIMEOUT),
        new SimpleMeterRegistry());
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
  void a_waiter_when_redis_dies_gets_an_error_or_times_out_within_its_max_wait() throws Exception {
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
    try (var otherNode = RedisCoordination.connect(
        server.uri(),
        new RedisCoordination.Options(prefix, COMMAND_TIMEOUT),
        new SimpleMeterRegistry())) {
      long started = System.nanoTime();
      Future<Outcome> local = threads.submit(
          () -> redis.computeOnce().computeOnce(key, timings, () -> "a second computation"));
      Future<Outcome> remote = threads.submit(
          () -> otherNode.computeOnce().computeOnce(key, timings, () -> "a third computation"));
      Thread.sleep(200); // both wait: one behind the local winner, one on the lock in Redis

      server.kill();

      Duration bound = maxWait.plus(MAX_WAIT_MARGIN);
      for (Future<Outcome> waiter : List.of(local, remote)) {
        assertTimeoutPreemptively(bound.plusSeconds(1), () -> {
          try {
            assertThat(waiter.get()).isInstanceOf(Outcome.TimedOut.class);
          } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(CoordinationException.class);
          }
        });
      }
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(bound);
    }

    finish.countDown();
    assertTimeoutPreemptively(
        FAST,
        () -> assertThatThrownBy(winner::get)
            .as("a winner that cannot publish must not report a value as computed")
            .hasCauseInstanceOf(CoordinationException.class));
  }

  @Test
  void a_stale_winner_is_fenced_out_after_redis_restarted_empty() throws Exception {
    String key = key();
    Timings timings = timings(Duration.ofSeconds(10));
    try (var nodeB = RedisCoordination.connect(
        server.uri(),
        new RedisCoordination.Options(prefix, COMMAND_TIMEOUT),
        new SimpleMeterRegistry())) {
      var aComputing = new CountDownLatch(1);
      var aWakes = new CountDownLatch(1);
      Future<Outcome> a = threads.submit(() -> redis.computeOnce().computeOnce(key, timings, () -> {
        aComputing.countDown();
        await(aWakes); // stalls across the restart
        return "stale";
      }));
      assertThat(aComputing.await(5, TimeUnit.SECONDS)).isTrue();

      server.kill();
      server.restart(); // no persistence: the lock, the fence counter and the scripts are gone
      assertThat(poll(
              Duration.ofSeconds(20),
              () -> redis.problem().isEmpty() && nodeB.problem().isEmpty()))
          .as("both nodes reconnected")
          .isTrue();

      var bComputing = new CountDownLatch(1);
      var bWakes = new CountDownLatch(1);
      Future<Outcome> b = threads.submit(() -> nodeB.computeOnce().computeOnce(key, timings, () -> {
        bComputing.countDown();
        await(bWakes);
        return "fresh";
      }));
      assertThat(bComputing.await(5, TimeUnit.SECONDS)).isTrue();
      aWakes.countDown();
      Thread.sleep(300); // A publishes, is refused, and waits for B
      bWakes.countDown();

      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
        assertThat(b.get())
            .isInstanceOfSatisfying(
                Outcome.Computed.class,
                computed -> assertThat(computed.value()).isEqualTo("fresh"));
        assertThat(a.get()).isEqualTo(new Outcome.Joined("fresh"));
      });
      assertThat(redis.computeOnce().peek(key)).contains("fresh");
    }
  }

  @Test
  void while_redis_hangs_every_caller_returns_within_its_max_wait() throws Exception {
    try (var proxy = TcpProxy.to("127.0.0.1", server.port());
        var hung = RedisCoordination.connect(
            URI.create("redis://127.0.0.1:" + proxy.port()),
            new RedisCoordination.Options(prefix, Duration.ofSeconds(5)),
            new SimpleMeterRegistry())) {
      String key = key();
      Duration maxWait = Duration.ofMillis(300);
      var computing = new CountDownLatch(1);
      var finish = new CountDownLatch(1);
      Future<Outcome> winner =
          threads.submit(() -> hung.computeOnce().computeOnce(key, timings(maxWait), () -> {
            computing.countDown();
            await(finish);
            return "computed before the hang";
          }));
      assertThat(computing.await(5, TimeUnit.SECONDS)).isTrue();

      proxy.freeze(); // connections stay open, nothing passes: a hung server or network path

      List<Future<Duration>> callers = new ArrayList<>();
      for (String k : List.of(key, key, key(), key())) { // waiters behind the winner, and leaders
        callers.add(threads.submit(() -> {
          long started = System.nanoTime();
          Outcome outcome = hung.computeOnce().computeOnce(k, timings(maxWait), () -> "never");
          assertThat(outcome).isInstanceOf(Outcome.TimedOut.class);
          return Duration.ofNanos(System.nanoTime() - started);
        }));
      }
      for (Future<Duration> caller : callers) {
        assertThat(caller.get(5, TimeUnit.SECONDS))
            .as(
                "a call while Redis hangs, against its maxWait of %s and a 5 s command timeout",
                maxWait)
            .isLessThanOrEqualTo(maxWait.plus(MAX_WAIT_MARGIN));
      }
      finish.countDown();
      proxy.unfreeze();
      winner.get(15, TimeUnit.SECONDS);
    }
  }

  @Test
  void connecting_to_a_redis_that_hangs_fails_with_a_coordination_exception() {
    try (var proxy = TcpProxy.to("127.0.0.1", server.port())) {
      proxy.freeze();
      assertTimeoutPreemptively(
          FAST.plusSeconds(1),
          () -> assertThatThrownBy(() -> RedisCoordination.connect(
                      URI.create("redis://127.0.0.1:" + proxy.port()),
                      new RedisCoordination.Options(prefix, COMMAND_TIMEOUT),
                      new SimpleMeterRegistry())
                  .close())
              .isInstanceOf(CoordinationException.class));
    }
  }

  /**
   * Connections cut again and again under load (Lettuce reconnects, re-sends what was in flight, and
   * refuses commands meanwhile). Callers may fail or time out, but none may get a wrong answer: every
   * value returned for a key is the one published for it, and only its computer is told "Computed".
   */
  @Test
  void network_blips_never_give_a_caller_a_wrong_answer() throws Exception {
    try (var proxy = TcpProxy.to("127.0.0.1", server.port());
        var nodeA = RedisCoordination.connect(
            URI.create("redis://127.0.0.1:" + proxy.port()),
            new RedisCoordination.Options(prefix, COMMAND_TIMEOUT),
            new SimpleMeterRegistry());
        var nodeB = RedisCoordination.connect(
            URI.create("redis://127.0.0.1:" + proxy.port()),
            new RedisCoordination.Options(prefix, COMMAND_TIMEOUT),
            new SimpleMeterRegistry())) {
      List<ComputeOnce> nodes = List.of(nodeA.computeOnce(), nodeB.computeOnce());
      Timings timings =
          new Timings(Duration.ofMillis(500), Duration.ofMinutes(5), Duration.ofSeconds(2));
      var stop = new AtomicBoolean();
      var cuts = new AtomicInteger();
      var failures = new AtomicInteger();
      Future<?> blips = threads.submit(() -> {
        while (!stop.get()) {
          Thread.sleep(150);
          cuts.incrementAndGet();
          proxy.cut();
          Thread.sleep(30);
          proxy.restore();
        }
        return null;
      });
      record Answer(String key, Outcome outcome) {}
      List<Future<List<Answer>>> callers = new ArrayList<>();
      long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      for (int c = 0; c < 40; c++) {
        int caller = c;
        callers.add(threads.submit(() -> {
          List<Answer> answers = new ArrayList<>();
          // every caller walks the same keys at about the same pace, so each key is contended
          for (int k = 0; System.nanoTime() < end; k++) {
            String key = "blip-" + k;
            try {
              Outcome outcome = nodes
                  .get(caller % 2)
                  .computeOnce(key, timings, () -> key + " by " + UUID.randomUUID());
              answers.add(new Answer(key, outcome));
            } catch (CoordinationException e) {
              failures.incrementAndGet(); // an allowed answer during a blip
              Thread.sleep(5); // as a client backs off
            }
          }
          return answers;
        }));
      }
      List<Answer> answers = new ArrayList<>();
      for (Future<List<Answer>> caller : callers) answers.addAll(caller.get(120, TimeUnit.SECONDS));
      stop.set(true);
      blips.get(5, TimeUnit.SECONDS);
      System.out.printf(
          "blips: %d cuts, %d answers, %d failed calls%n",
          cuts.get(), answers.size(), failures.get());
      assertThat(cuts).as("connections cut while the callers ran").hasValueGreaterThanOrEqualTo(5);
      assertThat(failures).as("calls that met a cut").hasPositiveValue();

      try (RedisClient inspector = RedisClient.create(server.uri().toString());
          StatefulRedisConnection<String, String> look = inspector.connect()) {
        Map<String, List<Outcome>> byKey = new HashMap<>();
        for (Answer answer : answers)
          byKey.computeIfAbsent(answer.key(), k -> new ArrayList<>()).add(answer.outcome());
        assertThat(byKey).as("keys that got answers despite the blips").isNotEmpty();
        for (var entry : byKey.entrySet()) {
          String published =
              look.sync().hget(prefix + "co:{" + entry.getKey() + "}:published", "v");
          List<Outcome> outcomes = entry.getValue();
          assertThat(outcomes.stream().flatMap(o -> o.valueIfAny().stream()).distinct())
              .as("values returned for %s", entry.getKey())
              .allSatisfy(value -> assertThat(value).isEqualTo(published));
          assertThat(outcomes)
              .as("callers told Computed for %s", entry.getKey())
              .filteredOn(Outcome.Computed.class::isInstance)
              .hasSizeLessThanOrEqualTo(1);
        }
      }
    }
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

  private static Optional<String> within(Duration bound, Supplier<Optional<String>> problem) {
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

package dev.tidings.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.testing.RealServers;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The benchmark baseline does what the seed did: one computation per key, every caller one value. */
class SeedLiteralComputeOnceIT {
  private static final Timings TIMINGS =
      new Timings(Duration.ofSeconds(2), Duration.ofSeconds(30), Duration.ofSeconds(2));

  @BeforeAll
  static void redisIsThere() {
    RealServers.requireRedis();
  }

  @Test
  void callers_on_two_nodes_share_one_computation_and_every_key_has_a_ttl() throws Exception {
    String prefix = "tidings-test:" + UUID.randomUUID() + ":";
    RedisClient inspector = RedisClient.create(RealServers.redisUrl().toString());
    try (var first = SeedLiteralComputeOnce.connect(RealServers.redisUrl(), prefix);
        var second = SeedLiteralComputeOnce.connect(RealServers.redisUrl(), prefix);
        var threads = Executors.newVirtualThreadPerTaskExecutor();
        var connection = inspector.connect()) {
      var computations = new AtomicInteger();
      var start = new CountDownLatch(1);
      List<Future<Outcome>> calls = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        var node = i % 2 == 0 ? first : second;
        calls.add(threads.submit(() -> {
          start.await();
          return node.computeOnce("email-1", TIMINGS, () -> {
            computations.incrementAndGet();
            sleepQuietly(50);
            return "p1,p2,p3";
          });
        }));
      }
      start.countDown();
      int computed = 0;
      for (Future<Outcome> call : calls) {
        Outcome outcome = call.get();
        assertThat(outcome.valueIfAny()).contains("p1,p2,p3");
        if (outcome instanceof Outcome.Computed) computed++;
      }
      assertThat(computations).hasValue(1);
      assertThat(computed).isEqualTo(1);
      assertThat(first.peek("email-1")).contains("p1,p2,p3");
      var keys = connection.sync().keys(prefix + "*");
      assertThat(keys).containsExactlyInAnyOrder(prefix + "lock-email-1", prefix + "list-email-1");
      for (String key : keys) assertThat(connection.sync().ttl(key)).isPositive();
      connection.sync().del(keys.toArray(String[]::new));
    } finally {
      inspector.shutdown();
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

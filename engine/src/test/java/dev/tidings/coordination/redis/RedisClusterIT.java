package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.RateLimiter.Limit;
import dev.tidings.testing.RedisClusterServers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What only a Redis Cluster asks of the adapter: scripts missing on a node, wake-ups after the node
 * holding the subscription died, health from the cluster.
 */
class RedisClusterIT {
  private static final Timings TIMINGS =
      new Timings(Duration.ofMillis(500), Duration.ofSeconds(5), Duration.ofSeconds(5));

  private RedisClusterServers cluster;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private RedisCoordination redis;

  @BeforeEach
  void connect() {
    cluster = RedisClusterServers.get();
    redis = RedisCoordination.connect(
        cluster.uri(),
        new RedisCoordination.Options(
            "cluster-it-" + UUID.randomUUID() + ":", Duration.ofSeconds(2)),
        metrics);
  }

  @AfterEach
  void close() {
    redis.close();
  }

  /**
   * The node holding node B's pub/sub connection dies (a primary is failed over, a replica just goes);
   * B's connection moves to another node and subscribes again, and a waiter on B is then woken by A's
   * notice, long before the lock it waits on would expire.
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void wake_ups_arrive_after_the_node_holding_the_subscription_died() throws Exception {
    String prefix = "cluster-wake-" + UUID.randomUUID() + ":";
    var options = new RedisCoordination.Options(prefix, Duration.ofSeconds(2));
    try (var nodeB = RedisCoordination.connect(cluster.uri(), options, new SimpleMeterRegistry())) {
      String channel = RedisComputeOnce.channel(prefix);
      int holding = subscriberPorts(channel).stream().findFirst().orElseThrow();
      cluster.kill(holding);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (subscriberPorts(channel).isEmpty()) {
        assertThat(System.nanoTime()).as("B subscribed again elsewhere").isLessThan(deadline);
        Thread.sleep(50);
      }
      cluster.awaitOk(); // a killed primary's replica is promoted
      try (var nodeA =
          RedisCoordination.connect(cluster.uri(), options, new SimpleMeterRegistry())) {
        String key = "wake-" + UUID.randomUUID();
        // B too must see the promoted primary before it can wait on A's lock there
        long seen = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
          try {
            nodeB.computeOnce().peek(key);
            break;
          } catch (CoordinationException e) {
            assertThat(System.nanoTime())
                .as("B reaches the key's primary: " + e)
                .isLessThan(seen);
            Thread.sleep(100);
          }
        }
        Timings slowLock =
            new Timings(Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(20));
        var computing = new CountDownLatch(1);
        var finish = new CountDownLatch(1);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
          Future<Outcome> winner = pool.submit(() -> awaitTopology(nodeA, key, slowLock, () -> {
            computing.countDown();
            finish.await();
            return "from A";
          }));
          assertThat(computing.await(30, TimeUnit.SECONDS)).isTrue();
          Future<Outcome> waiter =
              pool.submit(() -> nodeB.computeOnce().computeOnce(key, slowLock, () -> "from B"));
          Thread.sleep(200); // B waits on A's lock
          long published = System.nanoTime();
          finish.countDown();
          assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(new Outcome.Joined("from A"));
          assertThat(Duration.ofNanos(System.nanoTime() - published))
              .as("woken by the notice, not by the 20 s lock expiring")
              .isLessThan(Duration.ofSeconds(3));
          assertThat(winner.get(10, TimeUnit.SECONDS)).isInstanceOf(Outcome.Computed.class);
        }
      }
    } finally {
      cluster.heal();
    }
  }

  /** Computes as A once A reaches the key's primary (right after a failover it may not yet). */
  private static Outcome awaitTopology(
      RedisCoordination node, String key, Timings timings, Callable<String> compute)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      try {
        return node.computeOnce().computeOnce(key, timings, () -> {
          try {
            return compute.call();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
      } catch (CoordinationException e) {
        if (System.nanoTime() > deadline) throw e;
        Thread.sleep(100);
      }
    }
  }

  /** The running nodes on which someone subscribes to {@code channel} (PUBSUB CHANNELS is per node). */
  private List<Integer> subscriberPorts(String channel) {
    List<Integer> ports = new ArrayList<>();
    for (int port : cluster.ports()) {
      cluster.reply(port, "PUBSUB CHANNELS " + channel).ifPresent(reply -> {
        if (reply.lines().anyMatch(channel::equals)) ports.add(port);
      });
    }
    return ports;
  }

  @Test
  void connects_as_a_cluster_and_reports_its_state_ok() {
    assertThat(redis.isCluster()).isTrue();
    assertThat(redis.problem()).isEmpty();
  }

  @Test
  void scripts_a_node_lost_are_sent_again_to_that_node_and_counted() {
    assertThat(cluster.onEveryNode("SCRIPT FLUSH"))
        .allSatisfy(r -> assertThat(r).contains("OK"));
    double before = metrics.counter(RedisCoordination.SCRIPT_LOADS).count();

    // keys on every primary: each needs the scripts again
    for (int i = 0; i < 30; i++) {
      String key = "key-" + i + "-" + UUID.randomUUID();
      assertThat(redis.computeOnce().computeOnce(key, TIMINGS, () -> "v"))
          .isInstanceOf(Outcome.Computed.class);
      assertThat(redis.rateLimiter().tryAcquire(key, new Limit(10, 5), 1).granted())
          .isTrue();
      assertThat(redis.countdown().start(key, 2, "me", Duration.ofMinutes(1))).isTrue();
      assertThat(redis.countdown().claim(key, 0, "me", Duration.ofSeconds(5))).isPresent();
    }

    double loads = metrics.counter(RedisCoordination.SCRIPT_LOADS).count() - before;
    // acquire, publish, rate limit, start, claim: once per script per primary, then cached there
    assertThat(loads).isGreaterThanOrEqualTo(5).isLessThanOrEqualTo(5 * 3);
  }
}

package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.RateLimiter.Limit;
import dev.tidings.testing.RedisClusterServers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What only a Redis Cluster asks of the adapter: scripts missing on a node, health from the cluster. */
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

package dev.tidings.coordination.redis;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnceContract;
import dev.tidings.testing.RedisClusterServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/** The compute-once contract on a Redis Cluster of six processes (three primaries, three replicas). */
class RedisClusterComputeOnceIT extends ComputeOnceContract {
  private RedisTestServer redis;

  @Override
  protected ComputeOnce create() {
    redis = new RedisTestServer(RedisClusterServers.get().uri());
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
}

package dev.tidings.coordination.redis;

import dev.tidings.coordination.RateLimiter;
import dev.tidings.coordination.RateLimiterContract;
import dev.tidings.testing.RedisClusterServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/** The rate limiter contract on a Redis Cluster of six processes (three primaries, three replicas). */
class RedisClusterRateLimiterIT extends RateLimiterContract {
  private RedisTestServer redis;

  @Override
  protected RateLimiter create() {
    redis = new RedisTestServer(RedisClusterServers.get().uri());
    return redis.coordination.rateLimiter();
  }

  @Override
  protected void advance(Duration duration) {
    RedisTestServer.sleepFor(duration);
  }

  @AfterEach
  void cleanUp() {
    redis.close();
  }
}

package dev.tidings.coordination.redis;

import dev.tidings.coordination.RateLimiter;
import dev.tidings.coordination.RateLimiterContract;
import dev.tidings.testing.RealServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedisRateLimiterIT extends RateLimiterContract {
  private RedisTestServer redis;

  @BeforeAll
  static void redisIsThere() {
    RealServers.requireRedis();
  }

  @Override
  protected RateLimiter create() {
    redis = new RedisTestServer();
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

  @Test
  void every_key_written_has_a_ttl() {
    String key = uniqueKey();
    while (limiter.tryAcquire(key, TEN_PER_SECOND, 1).granted()) {
      // empty the bucket
    }
    redis.assertEveryKeyHasATtl();
  }
}

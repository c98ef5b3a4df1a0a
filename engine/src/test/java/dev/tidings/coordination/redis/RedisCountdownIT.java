package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.CountdownContract;
import dev.tidings.testing.RealServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedisCountdownIT extends CountdownContract {
  private RedisTestServer redis;

  @BeforeAll
  static void redisIsThere() {
    RealServers.requireRedis();
  }

  @Override
  protected Countdown create() {
    redis = new RedisTestServer();
    return redis.coordination.countdown();
  }

  @Override
  protected void advance(Duration duration) {
    RedisTestServer.sleepFor(duration);
  }

  @Override
  protected Countdown loseEverything() {
    redis.deleteEveryKey(); // as a Redis restart without persistence does
    return countdown;
  }

  @AfterEach
  void cleanUp() {
    redis.close();
  }

  @Test
  void every_key_written_has_a_ttl() {
    String name = uniqueName();
    countdown.start(name, 3, RETENTION);
    assertThat(countdown.claim(name, 0, LEASE)).isPresent();
    countdown.finish(countdown.claim(name, 1, LEASE).orElseThrow());
    redis.assertEveryKeyHasATtl();
  }
}

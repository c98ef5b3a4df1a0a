package dev.tidings.coordination.redis;

import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.CountdownContract;
import dev.tidings.testing.RedisClusterServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/** The countdown contract on a Redis Cluster of six processes (three primaries, three replicas). */
class RedisClusterCountdownIT extends CountdownContract {
  private RedisTestServer redis;

  @Override
  protected Countdown create() {
    redis = new RedisTestServer(RedisClusterServers.get().uri());
    return redis.coordination.countdown();
  }

  @Override
  protected void advance(Duration duration) {
    RedisTestServer.sleepFor(duration);
  }

  @Override
  protected Countdown loseEverything() {
    redis.deleteEveryKey(); // as a cluster restarted without persistence does
    return countdown;
  }

  @AfterEach
  void cleanUp() {
    redis.close();
  }
}

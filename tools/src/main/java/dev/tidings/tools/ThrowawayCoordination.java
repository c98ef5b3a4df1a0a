package dev.tidings.tools;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.coordination.redis.RedisCoordination;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Coordination for benchmarks: the in-process adapter, or several Redis nodes in this process (as
 * several Tidings processes would be) under a key prefix of their own. Every key the Redis adapter
 * writes expires by itself, so nothing is left to delete.
 */
public final class ThrowawayCoordination implements AutoCloseable {
  private final List<RedisCoordination> nodes;

  private ThrowawayCoordination(List<RedisCoordination> nodes) {
    this.nodes = nodes;
  }

  public static ComputeOnce inProcessComputeOnce() {
    return InProcessCoordination.computeOnce(InstantSource.system());
  }

  /** {@code count} nodes on the Redis at {@code url}; fails with CoordinationException if it is not there. */
  public static ThrowawayCoordination redisNodes(URI url, int count) {
    String prefix = "tidings-bench-" + UUID.randomUUID() + ":";
    List<RedisCoordination> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++)
        nodes.add(RedisCoordination.connect(
            url,
            RedisCoordination.Options.defaults().withKeyPrefix(prefix),
            new SimpleMeterRegistry()));
    } catch (RuntimeException e) {
      nodes.forEach(RedisCoordination::close);
      throw e;
    }
    return new ThrowawayCoordination(List.copyOf(nodes));
  }

  public List<ComputeOnce> computeOnce() {
    return nodes.stream().map(RedisCoordination::computeOnce).toList();
  }

  @Override
  public void close() {
    nodes.forEach(RedisCoordination::close);
  }
}

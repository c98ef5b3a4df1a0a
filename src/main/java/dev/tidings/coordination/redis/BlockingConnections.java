package dev.tidings.coordination.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A small bounded pool of connections reserved for blocking commands (BLMOVE). A blocking command on the
 * shared connection would stall every command queued behind it (lettuce#1179), so each blocking call
 * gets a connection of its own. A connection whose command failed or timed out is closed rather than
 * reused, because its reply stream may be out of step.
 */
final class BlockingConnections implements AutoCloseable {
  private final RedisClient client;
  private final RedisURI uri;
  private final Semaphore permits;
  private final ConcurrentLinkedQueue<StatefulRedisConnection<String, String>> idle =
      new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  BlockingConnections(RedisClient client, RedisURI uri, int size) {
    this.client = client;
    this.uri = uri;
    this.permits = new Semaphore(size, true);
  }

  /** A connection within {@code wait}, or empty when all are busy that long. Give it back with {@link #giveBack}. */
  Optional<StatefulRedisConnection<String, String>> borrow(Duration wait)
      throws InterruptedException {
    if (closed) throw new IllegalStateException("the Redis coordination is closed");
    if (!permits.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) return Optional.empty();
    try {
      StatefulRedisConnection<String, String> connection = idle.poll();
      while (connection != null && !connection.isOpen()) connection = idle.poll();
      return Optional.of(connection != null ? connection : client.connect(StringCodec.UTF8, uri));
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  @SuppressWarnings(
      "FutureReturnValueIgnored") // closeAsync: nothing waits for a discarded connection
  void giveBack(StatefulRedisConnection<String, String> connection, boolean healthy) {
    try {
      if (healthy && !closed && connection.isOpen()) {
        idle.add(connection);
      } else {
        connection.closeAsync(); // a broken or surplus connection: nothing to wait for
      }
    } finally {
      permits.release();
    }
  }

  @Override
  public void close() {
    closed = true;
    StatefulRedisConnection<String, String> connection;
    while ((connection = idle.poll()) != null) connection.close();
  }
}

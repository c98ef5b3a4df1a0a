package dev.tidings.bench;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * <b>A benchmark baseline, not for production.</b> Compute-once with exactly seed 01's Redis commands
 * in its order, so {@code tidings bench open-burst} can measure Tidings' strategy against it in one run
 * ({@code TIDINGS_OPENTIME_STRATEGY=seed}):
 *
 * <pre>
 * HSETNX lock-{key} lock "got it"; EXPIRE lock-{key} lock_ttl          (every caller)
 * DEL list-{key}; LPUSH list-{key} value; EXPIRE list-{key} list_ttl   (the winner)
 * BRPOPLPUSH list-{key} list-{key} timeout; EXPIRE list-{key} list_ttl (everyone else)
 * </pre>
 *
 * <p>Nothing here is atomic or fenced, as in the seed: a caller that dies between HSETNX and EXPIRE
 * leaves a lock without a TTL, a winner stalled past its lock can overwrite a newer list, and a failed
 * compute leaves the lock until it expires. Each waiter blocks on a connection of its own, taken from a
 * bounded pool of {@value #BLOCKING_CONNECTIONS} per node (a waiter finding none free waits for one,
 * within its {@code maxWait}); the lock and the list writes share one pipelined connection. Values are
 * never fenced, so {@link Outcome.Computed} carries fence 0.
 */
public final class SeedLiteralComputeOnce implements ComputeOnce, AutoCloseable {
  /** Waiters that can block in BRPOPLPUSH at once on one node. */
  public static final int BLOCKING_CONNECTIONS = 128;

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

  private final RedisClient client;
  private final RedisURI uri;
  private final StatefulRedisConnection<String, String> shared;
  private final RedisCommands<String, String> redis;
  private final String prefix;
  private final Semaphore permits = new Semaphore(BLOCKING_CONNECTIONS, true);
  private final ConcurrentLinkedQueue<StatefulRedisConnection<String, String>> idle =
      new ConcurrentLinkedQueue<>();

  private SeedLiteralComputeOnce(RedisClient client, RedisURI uri, String prefix) {
    this.client = client;
    this.uri = uri;
    this.prefix = prefix;
    this.shared = client.connect(StringCodec.UTF8, uri);
    this.redis = shared.sync();
  }

  /**
   * Connects to the Redis at {@code redisUrl}; keys are {@code prefix + "lock-" + key} and {@code
   * prefix + "list-" + key}. Fails with {@link CoordinationException} when Redis is not there.
   */
  public static SeedLiteralComputeOnce connect(URI redisUrl, String prefix) {
    Objects.requireNonNull(redisUrl, "redisUrl");
    Objects.requireNonNull(prefix, "prefix");
    RedisURI uri;
    RedisClient client;
    try {
      uri = RedisURI.create(redisUrl.toString());
      uri.setTimeout(COMMAND_TIMEOUT);
      client = RedisClient.create();
    } catch (RuntimeException e) {
      throw new CoordinationException(
          "cannot use the Redis URL " + redisUrl + ": " + e.getMessage(), e);
    }
    client.setOptions(ClientOptions.builder()
        .socketOptions(SocketOptions.builder().connectTimeout(COMMAND_TIMEOUT).build())
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .build());
    try {
      return new SeedLiteralComputeOnce(client, uri, prefix);
    } catch (RuntimeException e) {
      client.shutdown();
      throw new CoordinationException(
          "cannot connect to Redis at " + uri.getHost() + ":" + uri.getPort() + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public Outcome computeOnce(String key, Timings timings, Supplier<String> compute) {
    String lockKey = prefix + "lock-" + key;
    String listKey = prefix + "list-" + key;
    long listTtl = seconds(timings.valueTtl());
    long started = System.nanoTime();
    boolean won = call(() -> redis.hsetnx(lockKey, "lock", "got it"));
    call(() -> redis.expire(lockKey, seconds(timings.lockTtl())));
    if (won) {
      String value = Objects.requireNonNull(compute.get(), "compute returned null");
      call(() -> redis.del(listKey));
      call(() -> redis.lpush(listKey, value));
      call(() -> redis.expire(listKey, listTtl));
      return new Outcome.Computed(value, 0);
    }
    Optional<String> value = await(listKey, timings.maxWait(), started);
    if (value.isEmpty()) return new Outcome.TimedOut(Duration.ofNanos(System.nanoTime() - started));
    call(() -> redis.expire(listKey, listTtl));
    return new Outcome.Joined(value.get());
  }

  private Optional<String> await(String listKey, Duration maxWait, long started) {
    try {
      if (!permits.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted while waiting for " + listKey, e);
    }
    StatefulRedisConnection<String, String> connection = idle.poll();
    boolean healthy = false;
    try {
      long leftNanos = maxWait.toNanos() - (System.nanoTime() - started);
      if (leftNanos <= 0) {
        healthy = true;
        return Optional.empty();
      }
      if (connection == null) connection = client.connect(StringCodec.UTF8, uri);
      // BRPOPLPUSH takes seconds; Redis 6+ accepts a fraction, at least 1 ms here
      double timeoutSeconds = Math.max(1, TimeUnit.NANOSECONDS.toMillis(leftNanos)) / 1000.0;
      connection.setTimeout(Duration.ofNanos(leftNanos).plus(COMMAND_TIMEOUT));
      @SuppressWarnings("deprecation") // the seed's command, kept on purpose: this is its baseline
      String value = connection.sync().brpoplpush(timeoutSeconds, listKey, listKey);
      healthy = true;
      return Optional.ofNullable(value);
    } catch (RedisException e) {
      throw new CoordinationException("Redis failed while waiting for " + listKey, e);
    } finally {
      if (connection != null) {
        if (healthy) idle.add(connection);
        else connection.close();
      }
      permits.release();
    }
  }

  @Override
  public Optional<String> peek(String key) {
    return Optional.ofNullable(call(() -> redis.lindex(prefix + "list-" + key, 0)));
  }

  private static long seconds(Duration duration) {
    return Math.max(1, (duration.toMillis() + 999) / 1000);
  }

  private static <T> T call(Supplier<T> command) {
    try {
      return command.get();
    } catch (RedisException e) {
      throw new CoordinationException("Redis failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    StatefulRedisConnection<String, String> connection;
    while ((connection = idle.poll()) != null) connection.close();
    shared.close();
    client.shutdown();
  }
}

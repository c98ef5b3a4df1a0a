package dev.tidings.bench;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The bench's baseline: Redis compute-once as Tidings did it before waiters shared a flight and a pub/sub
 * wake-up. Every caller acquires on its own; a loser blocks in {@code BLMOVE v v RIGHT LEFT} on one of
 * a node's eight blocking connections (a one-element list rotated in place), and waits for a free one
 * when all eight are busy. The lock, the per-key INCR fence and the fenced publish are as they were.
 * Kept only to be measured against; not a port adapter.
 */
final class BlmoveComputeOnce implements ComputeOnce, AutoCloseable {
  static final int BLOCKING_CONNECTIONS = 8;

  private static final String ACQUIRE = """
      local value = redis.call('LINDEX', KEYS[1], 0)
      if value then return {1, value} end
      if redis.call('EXISTS', KEYS[2]) == 1 then return {0} end
      local fence = redis.call('INCR', KEYS[3])
      redis.call('PEXPIRE', KEYS[3], ARGV[2])
      redis.call('SET', KEYS[2], fence, 'PX', ARGV[1])
      return {2, fence}
      """;

  private static final String PUBLISH = """
      if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
      redis.call('DEL', KEYS[1])
      redis.call('RPUSH', KEYS[1], ARGV[2])
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
      redis.call('DEL', KEYS[2])
      return 1
      """;

  private static final String RELEASE = """
      if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
      return 0
      """;

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration MIN_BLOCK = Duration.ofMillis(10);

  private final RedisClient client;
  private final RedisURI uri;
  private final StatefulRedisConnection<String, String> shared;
  private final RedisCommands<String, String> redis;
  private final String acquireSha;
  private final String publishSha;
  private final String releaseSha;
  private final String prefix;
  private final Semaphore permits = new Semaphore(BLOCKING_CONNECTIONS, true);
  private final ConcurrentLinkedQueue<StatefulRedisConnection<String, String>> idle =
      new ConcurrentLinkedQueue<>();

  private BlmoveComputeOnce(RedisClient client, RedisURI uri, String prefix) {
    this.client = client;
    this.uri = uri;
    this.prefix = prefix;
    this.shared = client.connect(StringCodec.UTF8, uri);
    this.redis = shared.sync();
    this.acquireSha = redis.scriptLoad(ACQUIRE);
    this.publishSha = redis.scriptLoad(PUBLISH);
    this.releaseSha = redis.scriptLoad(RELEASE);
  }

  static BlmoveComputeOnce connect(URI redisUrl, String prefix) {
    RedisURI uri = RedisURI.create(redisUrl.toString());
    uri.setTimeout(COMMAND_TIMEOUT);
    RedisClient client = RedisClient.create();
    client.setOptions(ClientOptions.builder()
        .socketOptions(SocketOptions.builder().connectTimeout(COMMAND_TIMEOUT).build())
        .build());
    try {
      return new BlmoveComputeOnce(client, uri, prefix);
    } catch (RedisException e) {
      client.shutdown();
      throw new CoordinationException("cannot connect to Redis at " + redisUrl, e);
    }
  }

  @Override
  public Outcome computeOnce(String key, Timings timings, Supplier<String> compute) {
    String base = prefix + "co:{" + key + "}:";
    String valueKey = base + "value";
    String lockKey = base + "lock";
    String[] keys = {valueKey, lockKey, base + "fence"};
    long started = System.nanoTime();
    long deadline = started + timings.maxWait().toNanos();
    @Nullable String computed = null;
    while (true) {
      long counterTtl = 2 * timings.valueTtl().toMillis() + timings.lockTtl().toMillis();
      List<Object> attempt = call(() -> redis.evalsha(
          acquireSha,
          ScriptOutputType.MULTI,
          keys,
          Long.toString(timings.lockTtl().toMillis()),
          Long.toString(counterTtl)));
      long code = (Long) attempt.getFirst();
      if (code == 1) return new Outcome.Joined((String) attempt.get(1));
      if (code == 2) {
        String fence = Long.toString((Long) attempt.get(1));
        String value;
        if (computed != null) {
          value = computed;
        } else {
          try {
            value = Objects.requireNonNull(compute.get(), "compute returned null");
          } catch (RuntimeException e) {
            call(() ->
                redis.evalsha(releaseSha, ScriptOutputType.INTEGER, new String[] {lockKey}, fence));
            throw e;
          }
        }
        Long written = call(() -> redis.evalsha(
            publishSha,
            ScriptOutputType.INTEGER,
            new String[] {valueKey, lockKey},
            fence,
            value,
            Long.toString(timings.valueTtl().toMillis())));
        if (written == 1) return new Outcome.Computed(value, Long.parseLong(fence));
        computed = value;
        continue;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) return new Outcome.TimedOut(Duration.ofNanos(System.nanoTime() - started));
      Duration slice = Duration.ofNanos(Math.min(left, timings.lockTtl().toNanos()));
      Optional<String> value = awaitValue(valueKey, slice);
      if (value.isPresent()) return new Outcome.Joined(value.get());
    }
  }

  private Optional<String> awaitValue(String valueKey, Duration slice) {
    Duration block = slice.compareTo(MIN_BLOCK) < 0 ? MIN_BLOCK : slice;
    try {
      if (!permits.tryAcquire(block.toNanos(), TimeUnit.NANOSECONDS)) return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted", e);
    }
    StatefulRedisConnection<String, String> connection = idle.poll();
    boolean healthy = false;
    try {
      if (connection == null) connection = client.connect(StringCodec.UTF8, uri);
      connection.setTimeout(block.plus(COMMAND_TIMEOUT));
      String value = connection
          .sync()
          .blmove(valueKey, valueKey, LMoveArgs.Builder.rightLeft(), block.toMillis() / 1000.0);
      healthy = true;
      return Optional.ofNullable(value);
    } catch (RedisException e) {
      throw new CoordinationException("Redis failed while waiting for " + valueKey, e);
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
    return Optional.ofNullable(call(() -> redis.lindex(prefix + "co:{" + key + "}:value", 0)));
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

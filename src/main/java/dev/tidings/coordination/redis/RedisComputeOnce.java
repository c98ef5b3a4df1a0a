package dev.tidings.coordination.redis;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@link ComputeOnce} over Redis, improving seed 01: the lock is {@code SET lock fence NX PX} with a fence
 * from a per-key counter, the value is a one-element list that waiters read with {@code BLMOVE v v RIGHT
 * LEFT} (rotating it keeps its TTL), and publishing is a script that writes only while the lock still
 * holds the winner's fence. Every step that touches more than one key is one script, and every key gets
 * its TTL in the same script that creates it.
 *
 * <p>Keys of one logical key share the hash tag {@code {key}}, so they live in one Cluster slot.
 */
final class RedisComputeOnce implements ComputeOnce {
  /** Value present: {1, value}. Lock taken by us: {2, fence}. Lock held by another: {0}. */
  static final LuaScript ACQUIRE = new LuaScript("""
      local value = redis.call('LINDEX', KEYS[1], 0)
      if value then return {1, value} end
      if redis.call('EXISTS', KEYS[2]) == 1 then return {0} end
      local fence = redis.call('INCR', KEYS[3])
      redis.call('PEXPIRE', KEYS[3], ARGV[2])
      redis.call('SET', KEYS[2], fence, 'PX', ARGV[1])
      return {2, fence}
      """);

  /** 1 when the lock still held ARGV[1] and the value was written; 0 when fenced out. */
  static final LuaScript PUBLISH = new LuaScript("""
      if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
      redis.call('DEL', KEYS[1])
      redis.call('RPUSH', KEYS[1], ARGV[2])
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
      redis.call('DEL', KEYS[2])
      return 1
      """);

  /** Deletes the lock only if it still holds ARGV[1]. */
  static final LuaScript RELEASE = new LuaScript("""
      if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
      return 0
      """);

  private static final Duration MIN_BLOCK = Duration.ofMillis(10);

  private final RedisCommands<String, String> redis;
  private final BlockingConnections blocking;
  private final String prefix;
  private final Duration commandTimeout;

  RedisComputeOnce(
      RedisCommands<String, String> redis,
      BlockingConnections blocking,
      String prefix,
      Duration commandTimeout) {
    this.redis = redis;
    this.blocking = blocking;
    this.prefix = prefix;
    this.commandTimeout = commandTimeout;
  }

  private record Keys(String value, String lock, String fence) {}

  private Keys keys(String key) {
    String base = prefix + "co:{" + key + "}:";
    return new Keys(base + "value", base + "lock", base + "fence");
  }

  @Override
  public Outcome computeOnce(String key, Timings timings, Supplier<String> compute) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(timings, "timings");
    Objects.requireNonNull(compute, "compute");
    Keys keys = keys(key);
    long started = System.nanoTime();
    long deadline = started + timings.maxWait().toNanos();
    @Nullable String computed = null; // a refused winner keeps its value in case it wins the lock again
    while (true) {
      List<Object> attempt = acquire(keys, timings);
      long code = (Long) attempt.getFirst();
      if (code == 1) return new Outcome.Joined((String) attempt.get(1));
      if (code == 2) {
        long fence = (Long) attempt.get(1);
        String value = computed != null ? computed : computeAsWinner(keys, fence, compute);
        if (publish(keys, fence, value, timings.valueTtl()))
          return new Outcome.Computed(value, fence);
        computed = value;
        continue;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) return new Outcome.TimedOut(Duration.ofNanos(System.nanoTime() - started));
      // waking at least once per lockTtl lets a waiter take over from a winner that died
      Duration slice = Duration.ofNanos(Math.min(left, timings.lockTtl().toNanos()));
      Optional<String> value = awaitValue(keys.value(), slice);
      if (value.isPresent()) return new Outcome.Joined(value.get());
    }
  }

  private List<Object> acquire(Keys keys, Timings timings) {
    // the fence counter outlives values and locks, so that fences keep growing while anyone may
    // hold one
    long counterTtl = 2 * timings.valueTtl().toMillis() + timings.lockTtl().toMillis();
    return call(
        "acquire the lock of " + keys.lock(),
        () -> ACQUIRE.run(
            redis,
            ScriptOutputType.MULTI,
            new String[] {keys.value(), keys.lock(), keys.fence()},
            Long.toString(timings.lockTtl().toMillis()),
            Long.toString(counterTtl)));
  }

  private String computeAsWinner(Keys keys, long fence, Supplier<String> compute) {
    try {
      return Objects.requireNonNull(compute.get(), "compute returned null for " + keys.value());
    } catch (RuntimeException | Error e) {
      try {
        call(
            "release " + keys.lock(),
            () -> RELEASE.run(
                redis, ScriptOutputType.INTEGER, new String[] {keys.lock()}, Long.toString(fence)));
      } catch (CoordinationException releaseFailed) {
        e.addSuppressed(releaseFailed); // the lock expires by itself after lockTtl
      }
      throw e;
    }
  }

  private boolean publish(Keys keys, long fence, String value, Duration valueTtl) {
    Long written = call(
        "publish " + keys.value(),
        () -> PUBLISH.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.value(), keys.lock()},
            Long.toString(fence),
            value,
            Long.toString(valueTtl.toMillis())));
    return written == 1;
  }

  /** Blocks on a dedicated connection until the value list exists or {@code slice} passes. */
  private Optional<String> awaitValue(String valueKey, Duration slice) {
    Duration block = slice.compareTo(MIN_BLOCK) < 0 ? MIN_BLOCK : slice;
    StatefulRedisConnection<String, String> connection;
    try {
      Optional<StatefulRedisConnection<String, String>> borrowed = blocking.borrow(block);
      if (borrowed.isEmpty()) return Optional.empty(); // all busy: the caller looks again
      connection = borrowed.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted while waiting for " + valueKey, e);
    }
    boolean healthy = false;
    try {
      // the client must not give up before Redis answers the block
      connection.setTimeout(block.plus(commandTimeout));
      String value = connection
          .sync()
          .blmove(valueKey, valueKey, LMoveArgs.Builder.rightLeft(), block.toMillis() / 1000.0);
      healthy = true;
      return Optional.ofNullable(value);
    } catch (RedisException e) {
      throw new CoordinationException(
          "Redis failed while waiting for " + valueKey + ": " + e.getMessage(), e);
    } finally {
      blocking.giveBack(connection, healthy);
    }
  }

  @Override
  public Optional<String> peek(String key) {
    Objects.requireNonNull(key, "key");
    String valueKey = keys(key).value();
    return Optional.ofNullable(call("read " + valueKey, () -> redis.lindex(valueKey, 0)));
  }

  static <T> T call(String what, Supplier<T> command) {
    try {
      return command.get();
    } catch (RedisException e) {
      throw new CoordinationException("Redis failed to " + what + ": " + e.getMessage(), e);
    }
  }
}

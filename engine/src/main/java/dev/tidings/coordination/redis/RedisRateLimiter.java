package dev.tidings.coordination.redis;

import static dev.tidings.coordination.redis.RedisComputeOnce.call;

import dev.tidings.coordination.RateLimiter;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@link RateLimiter} over Redis: a token bucket per key in a hash ({@code tokens}, {@code ts} in µs of
 * Redis time), refilled and taken from in one script. The bucket expires once it would be full again,
 * since a full bucket and a missing one mean the same.
 */
final class RedisRateLimiter implements RateLimiter {
  /** {1, 0} granted; {0, micros until the permits are there} refused. */
  static final LuaScript ACQUIRE = new LuaScript("""
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
      local rate = tonumber(ARGV[1])
      local burst = tonumber(ARGV[2])
      local want = tonumber(ARGV[3])
      local h = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
      local tokens = tonumber(h[1]) or burst
      local ts = tonumber(h[2]) or now
      if now > ts then
        tokens = math.min(burst, tokens + (now - ts) * rate / 1000000)
        ts = now
      end
      local granted, wait = 0, 0
      if tokens >= want then
        tokens = tokens - want
        granted = 1
      else
        wait = math.ceil((want - tokens) * 1000000 / rate)
      end
      redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'ts', string.format('%.0f', ts))
      redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / rate) + 1000)
      return {granted, wait}
      """);

  private final Commands redis;
  private final String prefix;

  RedisRateLimiter(Commands redis, String prefix) {
    this.redis = redis;
    this.prefix = prefix;
  }

  /** The limiter's one hash per key: the script takes this one key, so each call is in one slot. */
  static String bucket(String prefix, String key) {
    return RedisComputeOnce.tagged(prefix, "rl", key);
  }

  @Override
  public Decision tryAcquire(String key, Limit limit, int permits) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(limit, "limit");
    if (permits < 1)
      throw new IllegalArgumentException("permits must be at least 1 but was " + permits);
    if (permits > limit.burst()) {
      throw new IllegalArgumentException("permits (" + permits + ") exceed the burst ("
          + limit.burst() + ") and could never be granted");
    }
    String bucket = bucket(prefix, key);
    List<Object> result = call(
        "take from " + bucket,
        () -> ACQUIRE.run(
            redis,
            ScriptOutputType.MULTI,
            new String[] {bucket},
            Double.toString(limit.permitsPerSecond()),
            Integer.toString(limit.burst()),
            Integer.toString(permits)));
    boolean granted = (Long) result.getFirst() == 1;
    return new Decision(
        granted, granted ? Duration.ZERO : Duration.ofNanos((Long) result.get(1) * 1000));
  }
}

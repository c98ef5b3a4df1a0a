package dev.tidings.coordination.redis;

import static dev.tidings.coordination.redis.RedisComputeOnce.call;

import dev.tidings.coordination.Countdown;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link Countdown} over one Redis hash per countdown: {@code parts}, {@code remaining}, {@code
 * retention} (ms), {@code starter}, and per part {@code f:i} (fence), {@code h:i} (holder), {@code e:i}
 * (lease expiry, ms of Redis time) and {@code d:i} (done, with the remainder it left). Every operation
 * is one script; lease times come from {@code redis.call('TIME')}, so the nodes' clocks do not matter.
 * Every change re-arms the hash's TTL to its retention.
 *
 * <p>The hash vanishes when its retention passes or Redis restarts without persistence, and the same
 * name may then be started again. So a new fence is never just "last fence + 1" (that would start
 * again at 1 and let a lease from the lost run finish a part of the new one): it is at least Redis'
 * clock in microseconds, which no earlier claim can have reached.
 *
 * <p>Lettuce re-sends a command that was in flight when its connection dropped, so any script may run
 * twice; each is safe to: see docs/decisions.md, "Countdown commands may run twice".
 */
final class RedisCountdown implements Countdown {
  private static final String NOW = """
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      """;

  /** 1 when created by this starter (now or before), 0 when someone else created it. */
  static final LuaScript START = new LuaScript("""
      if redis.call('EXISTS', KEYS[1]) == 1 then
        if redis.call('HGET', KEYS[1], 'starter') == ARGV[3] then return 1 end
        return 0
      end
      redis.call('HSET', KEYS[1], 'parts', ARGV[1], 'remaining', ARGV[1], 'retention', ARGV[2],
        'starter', ARGV[3])
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
      return 1
      """);

  /** {fence} on success, {0} when not claimable, {-1} when missing, {-2, parts} when out of range. */
  static final LuaScript CLAIM = new LuaScript(NOW + """
      local h = redis.call('HMGET', KEYS[1], 'parts', 'retention')
      if not h[1] then return {-1} end
      local part = tonumber(ARGV[1])
      if part < 0 or part >= tonumber(h[1]) then return {-2, tonumber(h[1])} end
      if redis.call('HEXISTS', KEYS[1], 'd:' .. part) == 1 then return {0} end
      local expiry = redis.call('HGET', KEYS[1], 'e:' .. part)
      local fence
      if expiry and tonumber(expiry) > now then
        if redis.call('HGET', KEYS[1], 'h:' .. part) ~= ARGV[3] then return {0} end
        fence = tonumber(redis.call('HGET', KEYS[1], 'f:' .. part))
      else
        local micros = tonumber(t[1]) * 1000000 + tonumber(t[2])
        fence = math.max(tonumber(redis.call('HGET', KEYS[1], 'f:' .. part) or '0') + 1, micros)
        redis.call('HSET', KEYS[1], 'f:' .. part, string.format('%.0f', fence),
          'h:' .. part, ARGV[3])
      end
      redis.call('HSET', KEYS[1], 'e:' .. part, string.format('%.0f', now + tonumber(ARGV[2])))
      redis.call('PEXPIRE', KEYS[1], h[2])
      return {fence}
      """);

  /** {1} renewed, {0} lost, {-1} missing, {-2, parts} out of range. The fence decides, not the clock. */
  static final LuaScript RENEW = new LuaScript(NOW + """
      local h = redis.call('HMGET', KEYS[1], 'parts', 'retention')
      if not h[1] then return {-1} end
      local part = tonumber(ARGV[1])
      if part < 0 or part >= tonumber(h[1]) then return {-2, tonumber(h[1])} end
      if redis.call('HEXISTS', KEYS[1], 'd:' .. part) == 1 then return {0} end
      if redis.call('HGET', KEYS[1], 'f:' .. part) ~= ARGV[2] then return {0} end
      redis.call('HSET', KEYS[1], 'e:' .. part, string.format('%.0f', now + tonumber(ARGV[3])))
      redis.call('PEXPIRE', KEYS[1], h[2])
      return {1}
      """);

  /** {1, remaining} done; {0, reason} refused; {-2, parts} out of range. */
  static final LuaScript FINISH = new LuaScript("""
      local h = redis.call('HMGET', KEYS[1], 'parts', 'retention')
      if not h[1] then return {0, 'countdown does not exist'} end
      local part = tonumber(ARGV[1])
      if part < 0 or part >= tonumber(h[1]) then return {-2, tonumber(h[1])} end
      local fence = redis.call('HGET', KEYS[1], 'f:' .. part)
      local done = redis.call('HGET', KEYS[1], 'd:' .. part)
      if done then
        if fence == ARGV[2] then return {1, tonumber(done)} end
        return {0, 'part ' .. part .. ' is already done'}
      end
      if fence ~= ARGV[2] then
        return {0, 'lease on part ' .. part .. ' was taken over (fence ' .. ARGV[2] .. ', current ' .. tostring(fence or 0) .. ')'}
      end
      local remaining = redis.call('HINCRBY', KEYS[1], 'remaining', -1)
      redis.call('HSET', KEYS[1], 'd:' .. part, remaining)
      redis.call('HDEL', KEYS[1], 'e:' .. part)
      redis.call('PEXPIRE', KEYS[1], h[2])
      return {1, remaining}
      """);

  /** Parts claimed, not done, whose lease expired. */
  static final LuaScript STUCK = new LuaScript(NOW + """
      local flat = redis.call('HGETALL', KEYS[1])
      local h = {}
      for i = 1, #flat, 2 do h[flat[i]] = flat[i + 1] end
      local stuck = {}
      if not h['parts'] then return stuck end
      for part = 0, tonumber(h['parts']) - 1 do
        local expiry = h['e:' .. part]
        if h['f:' .. part] and not h['d:' .. part] and expiry and tonumber(expiry) <= now then
          stuck[#stuck + 1] = part
        end
      end
      return stuck
      """);

  private final Commands redis;
  private final String prefix;

  RedisCountdown(Commands redis, String prefix) {
    this.redis = redis;
    this.prefix = prefix;
  }

  private String key(String name) {
    return key(prefix, Objects.requireNonNull(name, "name"));
  }

  /** The countdown's one hash: every script here takes this one key, so each call is in one slot. */
  static String key(String prefix, String name) {
    return RedisComputeOnce.tagged(prefix, "cd", name);
  }

  @Override
  public boolean start(String name, int parts, String starter, Duration retention) {
    String key = key(name);
    Objects.requireNonNull(starter, "starter");
    if (parts < 1) throw new IllegalArgumentException("parts must be at least 1 but was " + parts);
    requirePositive(retention, "retention");
    Long created = call(
        "start " + key,
        () -> START.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {key},
            Integer.toString(parts),
            Long.toString(retention.toMillis()),
            starter));
    return created == 1;
  }

  @Override
  public Optional<Lease> claim(String name, int part, String holder, Duration leaseTtl) {
    String key = key(name);
    requirePositive(leaseTtl, "leaseTtl");
    Objects.requireNonNull(holder, "holder");
    List<Object> result = call(
        "claim part " + part + " of " + key,
        () -> CLAIM.run(
            redis,
            ScriptOutputType.MULTI,
            new String[] {key},
            Integer.toString(part),
            Long.toString(leaseTtl.toMillis()),
            holder));
    long code = (Long) result.getFirst();
    if (code == -2) throw outOfRange(part, (Long) result.get(1));
    return code > 0 ? Optional.of(new Lease(name, part, code)) : Optional.empty();
  }

  @Override
  public boolean renew(Lease lease, Duration leaseTtl) {
    String key = key(lease.name());
    requirePositive(leaseTtl, "leaseTtl");
    List<Object> result = call(
        "renew part " + lease.part() + " of " + key,
        () -> RENEW.run(
            redis,
            ScriptOutputType.MULTI,
            new String[] {key},
            Integer.toString(lease.part()),
            Long.toString(lease.fence()),
            Long.toString(leaseTtl.toMillis())));
    long code = (Long) result.getFirst();
    if (code == -2) throw outOfRange(lease.part(), (Long) result.get(1));
    return code == 1;
  }

  @Override
  public Finish finish(Lease lease) {
    String key = key(lease.name());
    List<Object> result = call(
        "finish part " + lease.part() + " of " + key,
        () -> FINISH.run(
            redis,
            ScriptOutputType.MULTI,
            new String[] {key},
            Integer.toString(lease.part()),
            Long.toString(lease.fence())));
    long code = (Long) result.getFirst();
    if (code == -2) throw outOfRange(lease.part(), (Long) result.get(1));
    if (code == 1) return new Finish.Done((Long) result.get(1));
    String reason = (String) result.get(1);
    return new Finish.Refused(
        reason.equals("countdown does not exist")
            ? "countdown " + lease.name() + " does not exist"
            : reason);
  }

  @Override
  public List<Integer> stuck(String name) {
    String key = key(name);
    List<Object> parts = call(
        "list stuck parts of " + key,
        () -> STUCK.run(redis, ScriptOutputType.MULTI, new String[] {key}));
    List<Integer> stuck = new ArrayList<>(parts.size());
    for (Object part : parts) stuck.add(((Long) part).intValue());
    return List.copyOf(stuck);
  }

  @Override
  public OptionalLong remaining(String name) {
    String key = key(name);
    String remaining = call("read " + key, () -> redis.sync().hget(key, "remaining"));
    return remaining == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(remaining));
  }

  private static IllegalArgumentException outOfRange(int part, long parts) {
    return new IllegalArgumentException(
        "part must be within 0.." + (parts - 1) + " but was " + part);
  }

  static void requirePositive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.toMillis() < 1)
      throw new IllegalArgumentException(name + " must be at least 1 ms but was " + duration);
  }
}

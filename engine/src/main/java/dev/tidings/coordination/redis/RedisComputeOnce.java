package dev.tidings.coordination.redis;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.redis.Flight.End;
import dev.tidings.coordination.redis.Flight.Grant;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@link ComputeOnce} over Redis, improving seed 01.
 *
 * <ul>
 *   <li><b>One interaction per key per node.</b> Callers of one key on this node share a {@link Flight}:
 *       one acquire, and if another node holds the lock, one wait. Redis sees the same few commands per
 *       key whether five or five hundred callers ask on a node.
 *   <li><b>Lock</b>: {@code SET lock "fence:token" NX PX lockTtl} inside the acquire script. The token is
 *       the flight's, so a replayed acquire (Lettuce re-sends commands in flight when a connection drops)
 *       gets its own grant back instead of finding "someone's" lock.
 *   <li><b>Fences</b> come from the Redis server's clock in microseconds, never below the key's last fence
 *       + 1: a lost counter (expired, or Redis restarted empty) cannot make them start again (see
 *       docs/decisions.md).
 *   <li><b>Publishing</b> is a script that writes the value only while the lock holds the winner's exact
 *       lock value, and announces it, value included, on one pub/sub channel per key prefix. A
 *       winner whose compute throws deletes its lock and announces that too, so a waiter takes over at once.
 *   <li><b>Waiting</b> costs no connection: each node has one pub/sub connection whose notices end the
 *       flight of the key they name. A waiting flight also ends when the lock it saw would expire (the
 *       acquire reply says when), so a dead winner is taken over after {@code lockTtl} even if no notice
 *       comes.
 * </ul>
 *
 * <p>Keys of one logical key share the hash tag {@code {key}}, so they live in one Cluster slot; the
 * channel is not a key.
 */
final class RedisComputeOnce implements ComputeOnce {
  /**
   * KEYS: published, lock, fence. ARGV: lockTtl ms, fence counter TTL ms, token. Value there: {1, value}.
   * Lock granted to this token (now or by an earlier run of the same acquire): {2, lock, pttl}. Lock
   * held by another: {0, pttl}.
   */
  static final LuaScript ACQUIRE = new LuaScript("""
      local value = redis.call('HGET', KEYS[1], 'v')
      if value then return {1, value} end
      local held = redis.call('GET', KEYS[2])
      if held then
        local colon = string.find(held, ':', 1, true)
        if colon and string.sub(held, colon + 1) == ARGV[3] then
          return {2, held, redis.call('PTTL', KEYS[2])}
        end
        return {0, redis.call('PTTL', KEYS[2])}
      end
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
      local last = tonumber(redis.call('GET', KEYS[3]) or '0')
      local fence = string.format('%.0f', math.max(now, last + 1))
      redis.call('SET', KEYS[3], fence, 'PX', ARGV[2])
      local lock = fence .. ':' .. ARGV[3]
      redis.call('SET', KEYS[2], lock, 'PX', ARGV[1])
      return {2, lock, tonumber(ARGV[1])}
      """);

  /**
   * KEYS: published, lock. ARGV: lock value, value, valueTtl ms, channel, notice header. {1} written
   * (or written already by this same lock: a replay); {0, value} fenced out, with the value that is
   * there; {0} fenced out and no value.
   */
  static final LuaScript PUBLISH = new LuaScript("""
      if redis.call('HGET', KEYS[1], 'by') == ARGV[1] then return {1} end
      if redis.call('GET', KEYS[2]) ~= ARGV[1] then
        local value = redis.call('HGET', KEYS[1], 'v')
        if value then return {0, value} end
        return {0}
      end
      redis.call('DEL', KEYS[1])
      redis.call('HSET', KEYS[1], 'v', ARGV[2], 'by', ARGV[1])
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
      redis.call('DEL', KEYS[2])
      redis.call('PUBLISH', ARGV[4], ARGV[5] .. ARGV[2])
      return {1}
      """);

  /** KEYS: lock. ARGV: lock value, channel, notice. Deletes the lock only if it still holds ARGV[1]. */
  static final LuaScript RELEASE = new LuaScript("""
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
      redis.call('DEL', KEYS[1])
      redis.call('PUBLISH', ARGV[2], ARGV[3])
      return 1
      """);

  private static final CoordinationException LEFT =
      new CoordinationException("the leader of this flight left before the lock was granted");

  private final Commands redis;
  private final String prefix;
  private final String channel;
  private final Duration commandTimeout;
  private final ConcurrentHashMap<String, Flight> flights = new ConcurrentHashMap<>();
  private final String node = HexFormat.of().toHexDigits(new SecureRandom().nextLong());
  private final AtomicLong flightNumbers = new AtomicLong();

  RedisComputeOnce(Commands redis, String prefix, Duration commandTimeout) {
    this.redis = redis;
    this.prefix = prefix;
    this.channel = channel(prefix);
    this.commandTimeout = commandTimeout;
  }

  /** The pub/sub channel of every node sharing {@code prefix}. */
  static String channel(String prefix) {
    return prefix + "co:notices";
  }

  /** The Redis keys of one logical key: one hash tag, so one Cluster slot (see {@link #tagged}). */
  record Keys(String published, String lock, String fence) {
    List<String> all() {
      return List.of(published, lock, fence);
    }
  }

  private Keys keys(String key) {
    return keys(prefix, key);
  }

  static Keys keys(String prefix, String key) {
    String base = tagged(prefix, "co", key) + ":";
    return new Keys(base + "published", base + "lock", base + "fence");
  }

  /**
   * {@code prefix family:{key}}: the hash tag puts every Redis key built on it in one Cluster slot.
   * Redis hashes only what lies between the first brace and the next closing one, and the whole key
   * when that is empty, so a key that is empty or starts with a closing brace gets a tag that cannot
   * be empty, under a family name of its own so that it never meets another key's Redis keys.
   */
  static String tagged(String prefix, String family, String key) {
    return key.isEmpty() || key.charAt(0) == '}'
        ? prefix + family + "x:{~" + key + "}"
        : prefix + family + ":{" + key + "}";
  }

  /**
   * {@inheritDoc}
   *
   * <p>Blocking by design: Tidings calls it from virtual threads (one per HTTP request), where a
   * blocked caller costs no platform thread, so there is no asynchronous variant; it would only wrap
   * this call in a thread.
   */
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
      long left = deadline - System.nanoTime();
      if (left <= 0) return timedOut(started);
      Flight flight = new Flight(node + "." + flightNumbers.incrementAndGet());
      Flight current = flights.putIfAbsent(key, flight);
      if (current == null) {
        start(key, keys, flight, timings);
        Optional<Grant> grant = awaitWin(flight, left);
        if (grant.isPresent()) {
          String value = computed != null
              ? computed
              : computeAsWinner(key, keys, flight, grant.get(), compute);
          Optional<Outcome> outcome = publish(key, keys, flight, grant.get(), value, timings);
          if (outcome.isPresent()) return outcome.get();
          computed = value;
          continue;
        }
      } else {
        flight = current;
      }
      End end = awaitEnd(flight, deadline);
      switch (end) {
        case End.Value value -> {
          return new Outcome.Joined(value.value());
        }
        case End.Failed failed ->
          throw new CoordinationException(
              String.valueOf(failed.error().getMessage()), failed.error());
        case End.Retry ignored -> {
          if (deadline - System.nanoTime() <= 0) return timedOut(started);
        }
      }
    }
  }

  /** Sends the flight's acquire; its reply ends the flight, or offers the lock to the leader. */
  private void start(String key, Keys keys, Flight flight, Timings timings) {
    flight.end.whenComplete((end, error) -> flights.remove(key, flight));
    // the fence counter outlives values and locks;
    // fences do not depend on it surviving (see ACQUIRE)
    long counterTtl = 2 * timings.valueTtl().toMillis() + timings.lockTtl().toMillis();
    CompletableFuture<List<Object>> reply;
    try {
      reply = ACQUIRE.runAsync(
          redis,
          ScriptOutputType.MULTI,
          new String[] {keys.published(), keys.lock(), keys.fence()},
          Long.toString(timings.lockTtl().toMillis()),
          Long.toString(counterTtl),
          flight.token);
    } catch (RuntimeException e) { // Lettuce refuses at once, e.g. while disconnected
      reply = CompletableFuture.failedFuture(e);
    }
    reply.whenComplete((answer, error) -> {
      if (error != null) {
        flight.end.complete(new End.Failed(failure("acquire the lock of " + keys.lock(), error)));
        return;
      }
      long code = (Long) answer.getFirst();
      if (code == 1) {
        flight.end.complete(new End.Value((String) answer.get(1)));
      } else if (code == 2) {
        String lock = (String) answer.get(1);
        var grant = new Grant(lock, Long.parseLong(lock.substring(0, lock.indexOf(':'))));
        // if the local winner hangs, the key's other local callers take over once its lock expires
        flight.end.completeOnTimeout(Flight.RETRY, expiry(answer, timings), TimeUnit.MILLISECONDS);
        if (!flight.win.complete(grant)) release(key, keys, grant);
      } else {
        flight.end.completeOnTimeout(Flight.RETRY, expiry(answer, timings), TimeUnit.MILLISECONDS);
      }
    });
  }

  /** When the lock in the reply expires, in ms from now (a little after, so Redis has dropped it). */
  private static long expiry(List<Object> answer, Timings timings) {
    long pttl = (Long) answer.getLast();
    return (pttl >= 0 ? pttl : timings.lockTtl().toMillis()) + 1;
  }

  /** The leader waits for its acquire; empty unless the lock was granted to it. */
  private Optional<Grant> awaitWin(Flight flight, long nanos) {
    try {
      CompletableFuture.anyOf(flight.end, flight.win).get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // deadline passed, or the flight ended: decided below, atomically with the acquire's reply
    } catch (InterruptedException e) {
      leave(flight);
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted while taking the lock", e);
    }
    if (leave(flight)) return Optional.empty();
    return Optional.of(flight.win.join());
  }

  /** True when the leader left before a grant came; a grant coming later is released by {@link #start}. */
  private static boolean leave(Flight flight) {
    return flight.win.completeExceptionally(LEFT);
  }

  private static End awaitEnd(Flight flight, long deadline) {
    try {
      return flight.end.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return Flight.RETRY; // the caller's deadline passed; the loop reports it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted while waiting for a computed value", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("flights only ever end normally", e);
    }
  }

  private static Outcome timedOut(long started) {
    return new Outcome.TimedOut(Duration.ofNanos(System.nanoTime() - started));
  }

  private String computeAsWinner(
      String key, Keys keys, Flight flight, Grant grant, Supplier<String> compute) {
    try {
      return Objects.requireNonNull(compute.get(), "compute returned null for " + keys.published());
    } catch (RuntimeException | Error e) {
      try {
        await(release(key, keys, grant), "release " + keys.lock());
      } catch (CoordinationException releaseFailed) {
        e.addSuppressed(releaseFailed); // the lock expires by itself after lockTtl
      }
      flight.end.complete(Flight.RETRY); // local callers try at once; other nodes get the notice
      throw e;
    }
  }

  /** Deletes the lock if it is still this grant's, and tells every node's waiters to try again. */
  private CompletableFuture<Long> release(String key, Keys keys, Grant grant) {
    try {
      return RELEASE.runAsync(
          redis,
          ScriptOutputType.INTEGER,
          new String[] {keys.lock()},
          grant.lock(),
          channel,
          Notice.header(Notice.RELEASED, key));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Writes the value under the grant. The outcome for the winner, or empty when it was fenced out and
   * no value is there yet (it tries again, keeping its value).
   */
  private Optional<Outcome> publish(
      String key, Keys keys, Flight flight, Grant grant, String value, Timings timings) {
    List<Object> answer;
    try {
      CompletableFuture<List<Object>> reply = PUBLISH.runAsync(
          redis,
          ScriptOutputType.MULTI,
          new String[] {keys.published(), keys.lock()},
          grant.lock(),
          value,
          Long.toString(timings.valueTtl().toMillis()),
          channel,
          Notice.header(Notice.PUBLISHED, key));
      answer = await(reply, "publish " + keys.published());
    } catch (RuntimeException e) {
      CoordinationException failure = failure("publish " + keys.published(), e);
      flight.end.complete(new End.Failed(failure));
      throw failure;
    }
    if ((Long) answer.getFirst() == 1) {
      flight.end.complete(new End.Value(value));
      return Optional.of(new Outcome.Computed(value, grant.fence()));
    }
    if (answer.size() > 1) {
      String newer = (String) answer.get(1);
      flight.end.complete(new End.Value(newer));
      return Optional.of(new Outcome.Joined(newer));
    }
    flight.end.complete(Flight.RETRY);
    return Optional.empty();
  }

  /** Waits for a command of a winner, which has no deadline of its own, up to the command timeout. */
  private <T> T await(CompletableFuture<T> reply, String what) {
    try {
      // Lettuce times the command out itself; the margin only guards against it not doing so
      return reply.get(
          commandTimeout.toNanos() + TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException("interrupted while waiting for Redis to " + what, e);
    } catch (ExecutionException | TimeoutException e) {
      throw failure(what, e);
    }
  }

  /** Every failure of a Redis call as a {@link CoordinationException}, whatever Lettuce threw. */
  private static CoordinationException failure(String what, Throwable error) {
    Throwable cause = error;
    while ((cause instanceof ExecutionException || cause instanceof CompletionException)
        && cause.getCause() != null) cause = cause.getCause();
    if (cause instanceof CoordinationException coordination) return coordination;
    String reason = cause instanceof TimeoutException
        ? "no answer in time"
        : String.valueOf(cause.getMessage());
    return new CoordinationException("Redis failed to " + what + ": " + reason, cause);
  }

  @Override
  public Optional<String> peek(String key) {
    Objects.requireNonNull(key, "key");
    String published = keys(key).published();
    try {
      return Optional.ofNullable(
          await(redis.async().hget(published, "v").toCompletableFuture(), "read " + published));
    } catch (RedisException e) {
      throw failure("read " + published, e);
    }
  }

  /**
   * Dispatches this prefix's notices to the flights of this node. Runs on Lettuce's I/O thread: it
   * only completes futures.
   */
  RedisPubSubAdapter<String, String> listener() {
    return new RedisPubSubAdapter<>() {
      private volatile boolean subscribedBefore; // reconnects may move to another I/O thread

      @Override
      public void message(String from, String message) {
        if (!from.equals(channel)) return;
        Notice.parse(message).ifPresent(notice -> {
          Flight flight = flights.get(notice.key());
          if (flight == null) return;
          flight.end.complete(
              switch (notice) {
                case Notice.Published published -> new End.Value(published.value());
                case Notice.Released released -> Flight.RETRY;
              });
        });
      }

      @Override
      public void subscribed(String to, long count) {
        if (!to.equals(channel)) return;
        // After a reconnect, notices sent while the connection was down are lost: every flight
        // looks again rather than wait for its lock to expire.
        if (subscribedBefore) flights.values().forEach(flight -> flight.end.complete(Flight.RETRY));
        subscribedBefore = true;
      }
    };
  }

  static <T> T call(String what, Supplier<T> command) {
    try {
      return command.get();
    } catch (RedisException e) {
      throw new CoordinationException("Redis failed to " + what + ": " + e.getMessage(), e);
    }
  }
}

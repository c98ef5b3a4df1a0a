package dev.tidings.coordination.redis;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.RateLimiter;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The coordination ports for many nodes sharing one Redis (standalone; the key layout is Cluster ready,
 * every logical key's Redis keys sharing one hash tag). Owns the Lettuce client, one shared connection
 * that all callers pipeline on, and one pub/sub connection on which compute-once waiters are woken. Close
 * it on shutdown.
 *
 * <p>Every command has the command timeout, and a command issued while the connection is down fails at
 * once instead of queueing for the reconnect; Lettuce still re-sends the commands that were in flight when
 * a connection dropped, which every script here is safe against (docs/decisions.md).
 *
 * <pre>{@code
 * try (var redis = RedisCoordination.connect(URI.create("redis://127.0.0.1:6379"))) {
 *   ComputeOnce once = redis.computeOnce();
 * }
 * }</pre>
 */
public final class RedisCoordination implements AutoCloseable {
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> shared;
  private final StatefulRedisPubSubConnection<String, String> notices;
  private final ComputeOnce computeOnce;
  private final Countdown countdown;
  private final RateLimiter rateLimiter;

  /**
   * @param keyPrefix put before every key this coordinator writes; no braces, which would break the
   *     hash tags. Nodes share compute-once values and wake-ups only with nodes of the same prefix.
   * @param commandTimeout how long a command may take before it fails; compute-once waiters give up
   *     earlier when their own {@code maxWait} ends first
   */
  public record Options(String keyPrefix, Duration commandTimeout) {
    public static final String DEFAULT_KEY_PREFIX = "tidings:";
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);

    public Options {
      Objects.requireNonNull(keyPrefix, "keyPrefix");
      Objects.requireNonNull(commandTimeout, "commandTimeout");
      if (keyPrefix.contains("{") || keyPrefix.contains("}")) {
        throw new IllegalArgumentException(
            "keyPrefix must not contain braces (they are the hash tags) but was " + keyPrefix);
      }
      if (commandTimeout.toMillis() < 1)
        throw new IllegalArgumentException(
            "commandTimeout must be at least 1 ms but was " + commandTimeout);
    }

    public static Options defaults() {
      return new Options(DEFAULT_KEY_PREFIX, DEFAULT_COMMAND_TIMEOUT);
    }

    public Options withKeyPrefix(String keyPrefix) {
      return new Options(keyPrefix, commandTimeout);
    }
  }

  private RedisCoordination(
      RedisClient client,
      StatefulRedisConnection<String, String> shared,
      StatefulRedisPubSubConnection<String, String> notices,
      RedisComputeOnce computeOnce,
      Options options) {
    this.client = client;
    this.shared = shared;
    this.notices = notices;
    RedisCommands<String, String> redis = shared.sync();
    this.computeOnce = computeOnce;
    this.countdown = new RedisCountdown(redis, options.keyPrefix());
    this.rateLimiter = new RedisRateLimiter(redis, options.keyPrefix());
  }

  public static RedisCoordination connect(URI uri) {
    return connect(uri, Options.defaults());
  }

  /** Connects and loads the scripts; fails with {@link CoordinationException} when Redis is not there. */
  public static RedisCoordination connect(URI uri, Options options) {
    return connect(uri, options, List.of());
  }

  /** As {@link #connect(URI, Options)}, with listeners that see every command sent (for tests). */
  static RedisCoordination connect(URI uri, Options options, List<CommandListener> listeners) {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(options, "options");
    RedisURI redisUri;
    RedisClient client;
    try {
      redisUri = RedisURI.create(uri.toString());
      redisUri.setTimeout(options.commandTimeout());
      client = RedisClient.create();
    } catch (RuntimeException e) {
      throw new CoordinationException("cannot use the Redis URL " + uri + ": " + e.getMessage(), e);
    }
    client.setOptions(ClientOptions.builder()
        .socketOptions(
            SocketOptions.builder().connectTimeout(options.commandTimeout()).build())
        .timeoutOptions(TimeoutOptions.enabled(options.commandTimeout()))
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .build());
    listeners.forEach(client::addListener);
    try {
      StatefulRedisConnection<String, String> shared = client.connect(StringCodec.UTF8, redisUri);
      shared.setTimeout(options.commandTimeout());
      for (LuaScript script : scripts()) script.load(shared.sync());
      var computeOnce =
          new RedisComputeOnce(shared.async(), options.keyPrefix(), options.commandTimeout());
      StatefulRedisPubSubConnection<String, String> notices =
          client.connectPubSub(StringCodec.UTF8, redisUri);
      notices.setTimeout(options.commandTimeout());
      notices.addListener(computeOnce.listener());
      notices.sync().subscribe(RedisComputeOnce.channel(options.keyPrefix()));
      return new RedisCoordination(client, shared, notices, computeOnce, options);
    } catch (RuntimeException e) { // RedisException, and whatever else the connect lets through
      client.shutdown();
      throw new CoordinationException(
          "cannot connect to Redis at " + redisUri.getHost() + ":" + redisUri.getPort() + ": "
              + e.getMessage(),
          e);
    }
  }

  private static List<LuaScript> scripts() {
    return List.of(
        RedisComputeOnce.ACQUIRE,
        RedisComputeOnce.PUBLISH,
        RedisComputeOnce.RELEASE,
        RedisCountdown.START,
        RedisCountdown.CLAIM,
        RedisCountdown.RENEW,
        RedisCountdown.FINISH,
        RedisCountdown.STUCK,
        RedisRateLimiter.ACQUIRE);
  }

  public ComputeOnce computeOnce() {
    return computeOnce;
  }

  public Countdown countdown() {
    return countdown;
  }

  public RateLimiter rateLimiter() {
    return rateLimiter;
  }

  /** Empty when Redis answers a PING in time; otherwise what is wrong, for {@code /health}. */
  public Optional<String> problem() {
    try {
      String pong = shared.sync().ping();
      return "PONG".equals(pong)
          ? Optional.empty()
          : Optional.of("Redis answered PING with " + pong);
    } catch (RedisException e) {
      return Optional.of("Redis does not answer: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    notices.close();
    shared.close();
    client.shutdown();
  }
}

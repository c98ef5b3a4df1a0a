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
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The coordination ports for many nodes sharing one Redis (standalone; the key layout is Cluster ready,
 * every logical key's Redis keys sharing one hash tag). Owns the Lettuce client, one shared connection
 * that all callers pipeline on, and a small pool of connections reserved for blocking waits. Close it on
 * shutdown.
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
  private final BlockingConnections blocking;
  private final ComputeOnce computeOnce;
  private final Countdown countdown;
  private final RateLimiter rateLimiter;

  /**
   * @param keyPrefix put before every key this coordinator writes; no braces, which would break the
   *     hash tags
   * @param commandTimeout how long a non-blocking command may take before it fails; blocking waits get
   *     their block time on top
   * @param blockingConnections how many waits may block at once on this node; further waiters queue
   */
  public record Options(String keyPrefix, Duration commandTimeout, int blockingConnections) {
    public static final String DEFAULT_KEY_PREFIX = "tidings:";
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);
    public static final int DEFAULT_BLOCKING_CONNECTIONS = 8;

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
      if (blockingConnections < 1) {
        throw new IllegalArgumentException(
            "blockingConnections must be at least 1 but was " + blockingConnections);
      }
    }

    public static Options defaults() {
      return new Options(DEFAULT_KEY_PREFIX, DEFAULT_COMMAND_TIMEOUT, DEFAULT_BLOCKING_CONNECTIONS);
    }

    public Options withKeyPrefix(String keyPrefix) {
      return new Options(keyPrefix, commandTimeout, blockingConnections);
    }
  }

  private RedisCoordination(
      RedisClient client,
      StatefulRedisConnection<String, String> shared,
      BlockingConnections blocking,
      Options options) {
    this.client = client;
    this.shared = shared;
    this.blocking = blocking;
    RedisCommands<String, String> redis = shared.sync();
    this.computeOnce =
        new RedisComputeOnce(redis, blocking, options.keyPrefix(), options.commandTimeout());
    this.countdown = new RedisCountdown(redis, options.keyPrefix());
    this.rateLimiter = new RedisRateLimiter(redis, options.keyPrefix());
  }

  public static RedisCoordination connect(URI uri) {
    return connect(uri, Options.defaults());
  }

  /** Connects and loads the scripts; fails with {@link CoordinationException} when Redis is not there. */
  public static RedisCoordination connect(URI uri, Options options) {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(options, "options");
    RedisURI redisUri = RedisURI.create(uri.toString());
    redisUri.setTimeout(options.commandTimeout());
    RedisClient client = RedisClient.create();
    client.setOptions(ClientOptions.builder()
        .socketOptions(
            SocketOptions.builder().connectTimeout(options.commandTimeout()).build())
        .build());
    try {
      StatefulRedisConnection<String, String> shared = client.connect(StringCodec.UTF8, redisUri);
      shared.setTimeout(options.commandTimeout());
      for (LuaScript script : scripts()) script.load(shared.sync());
      return new RedisCoordination(
          client,
          shared,
          new BlockingConnections(client, redisUri, options.blockingConnections()),
          options);
    } catch (RedisException e) {
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
    blocking.close();
    shared.close();
    client.shutdown();
  }
}

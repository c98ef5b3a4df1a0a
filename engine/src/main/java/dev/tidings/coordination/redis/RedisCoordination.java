package dev.tidings.coordination.redis;

import dev.tidings.config.RedisClusterUrl;
import dev.tidings.config.Settings;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.RateLimiter;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import reactor.core.Disposable;

/**
 * The coordination ports for many nodes sharing one Redis, standalone or a Redis Cluster (every logical
 * key's Redis keys share one hash tag, so every command and script touches one slot). Owns the Lettuce
 * client, one shared connection that all callers pipeline on (on a cluster, one routing connection
 * with a connection per node underneath), and one pub/sub connection on which compute-once waiters are
 * woken. Close it on shutdown.
 *
 * <p>Every command has the command timeout, and a command issued while its connection is down fails at
 * once instead of queueing for the reconnect; Lettuce still re-sends the commands that were in flight
 * when a connection dropped, which every script here is safe against (docs/decisions.md).
 *
 * <p><b>Cluster.</b> A URL of the form {@code redis-cluster://host:port,host:port} (see {@link
 * RedisClusterUrl}) connects with Lettuce's cluster client. It refreshes the topology periodically and
 * at once when a node stops answering, a MOVED or ASK redirect arrives or a reconnect keeps failing, so
 * a failover is seen within about a second of the promotion rather than at the next periodic refresh;
 * each change seen is counted ({@value #TOPOLOGY_CHANGES}). <b>Every read and write goes to the
 * primary</b> of its slot, never to a replica: compute-once and countdown read their own writes (a
 * lock, a published value, a claimed part) and a replica's copy may lag. Replication is asynchronous,
 * so a primary that dies may take its last writes with it: a promoted replica can lack a lock or a
 * published value, and grant the lock again (docs/reliability.md, "Redis Cluster"). The notices channel
 * is classic pub/sub, which a cluster broadcasts to every node, so the pub/sub connection may sit on
 * any node; when that node dies it reconnects to another and subscribes again, and compute-once
 * waiters look again on every resubscription, and in any case once the lock they saw would expire.
 *
 * <pre>{@code
 * try (var redis = RedisCoordination.connect(URI.create("redis://127.0.0.1:6379"), metrics)) {
 *   ComputeOnce once = redis.computeOnce();
 * }
 * }</pre>
 */
public final class RedisCoordination implements AutoCloseable {
  /** Counter: topology changes the cluster client saw (failovers, slots moved, nodes added). */
  public static final String TOPOLOGY_CHANGES = "tidings_redis_topology_changes";

  /** Counter: scripts sent in full because the node that answered did not have them cached. */
  public static final String SCRIPT_LOADS = "tidings_redis_script_loads";

  /** A safety net: adaptive refreshes catch failovers; the period catches what they miss. */
  private static final Duration TOPOLOGY_REFRESH_PERIOD = Duration.ofSeconds(10);

  /**
   * Adaptive refreshes at most this often. Lettuce ignores triggers for this long after one; a failover
   * is only seen once the cluster has promoted a replica (about cluster-node-timeout after the
   * primary died), so the first trigger, at the primary's death, is too early to see it.
   */
  private static final Duration ADAPTIVE_REFRESH_PAUSE = Duration.ofMillis(500);

  private final AbstractRedisClient client;
  private final List<AutoCloseable> connections;
  private final Commands commands;
  private final boolean cluster;
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
      AbstractRedisClient client,
      List<AutoCloseable> connections,
      Commands commands,
      boolean cluster,
      RedisComputeOnce computeOnce,
      Options options) {
    this.client = client;
    this.connections = connections;
    this.commands = commands;
    this.cluster = cluster;
    this.computeOnce = computeOnce;
    this.countdown = new RedisCountdown(commands, options.keyPrefix());
    this.rateLimiter = new RedisRateLimiter(commands, options.keyPrefix());
  }

  /** With the default options, counting in {@code metrics}. */
  public static RedisCoordination connect(URI uri, MeterRegistry metrics) {
    return connect(uri, Options.defaults(), metrics);
  }

  /**
   * Connects and loads the scripts, counting script reloads and (on a cluster) topology changes in
   * {@code metrics}; fails with {@link CoordinationException} when Redis is not there. A {@code
   * redis-cluster://} or {@code rediss-cluster://} URL connects to a cluster.
   */
  public static RedisCoordination connect(URI uri, Options options, MeterRegistry metrics) {
    return connect(uri, options, metrics, List.of());
  }

  /**
   * As {@link #connect(URI, Options, MeterRegistry)}, with listeners that see every command sent (for
   * tests).
   */
  static RedisCoordination connect(
      URI uri, Options options, MeterRegistry metrics, List<CommandListener> listeners) {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(metrics, "metrics");
    Counter scriptLoads = Counter.builder(SCRIPT_LOADS)
        .description("Lua scripts sent in full because the Redis node that answered lacked them")
        .register(metrics);
    return RedisClusterUrl.names(uri)
        ? connectCluster(uri, options, metrics, scriptLoads, listeners)
        : connectStandalone(uri, options, scriptLoads, listeners);
  }

  private static RedisCoordination connectStandalone(
      URI uri, Options options, Counter scriptLoads, List<CommandListener> listeners) {
    RedisURI redisUri;
    RedisClient client;
    try {
      redisUri = RedisURI.create(uri.toString());
      redisUri.setTimeout(options.commandTimeout());
      client = RedisClient.create();
    } catch (RuntimeException e) {
      throw new CoordinationException(
          "cannot use the Redis URL " + Settings.maskUserInfo(uri) + ": " + e.getMessage(), e);
    }
    client.setOptions(ClientOptions.builder()
        .socketOptions(socketOptions(options))
        .timeoutOptions(TimeoutOptions.enabled(options.commandTimeout()))
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .build());
    listeners.forEach(client::addListener);
    try {
      StatefulRedisConnection<String, String> shared = client.connect(StringCodec.UTF8, redisUri);
      shared.setTimeout(options.commandTimeout());
      var commands = new Commands(shared.sync(), shared.async(), scriptLoads);
      for (LuaScript script : scripts()) commands.sync().scriptLoad(script.source());
      var computeOnce =
          new RedisComputeOnce(commands, options.keyPrefix(), options.commandTimeout());
      StatefulRedisPubSubConnection<String, String> notices =
          client.connectPubSub(StringCodec.UTF8, redisUri);
      notices.setTimeout(options.commandTimeout());
      notices.addListener(computeOnce.listener());
      notices.sync().subscribe(RedisComputeOnce.channel(options.keyPrefix()));
      return new RedisCoordination(
          client, List.of(notices, shared), commands, false, computeOnce, options);
    } catch (RuntimeException e) { // RedisException, and whatever else the connect lets through
      client.shutdown();
      throw new CoordinationException(
          "cannot connect to Redis at " + redisUri.getHost() + ":" + redisUri.getPort() + ": "
              + e.getMessage(),
          e);
    }
  }

  private static RedisCoordination connectCluster(
      URI uri,
      Options options,
      MeterRegistry metrics,
      Counter scriptLoads,
      List<CommandListener> listeners) {
    RedisClusterUrl url;
    try {
      url = RedisClusterUrl.parse(uri);
    } catch (IllegalArgumentException e) {
      throw new CoordinationException("cannot use the Redis URL: " + e.getMessage(), e);
    }
    List<RedisURI> seeds = new ArrayList<>();
    for (RedisClusterUrl.Seed seed : url.seeds()) {
      RedisURI.Builder builder = RedisURI.builder()
          .withHost(seed.host())
          .withPort(seed.port())
          .withSsl(url.tls())
          .withTimeout(options.commandTimeout());
      if (url.password().isPresent()) {
        char[] password = url.password().get().value().toCharArray();
        if (url.user().isPresent()) builder.withAuthentication(url.user().get(), password);
        else builder.withPassword(password);
      }
      seeds.add(builder.build());
    }
    String where = String.join(
        ",", url.seeds().stream().map(seed -> seed.host() + ":" + seed.port()).toList());
    RedisClusterClient client = RedisClusterClient.create(seeds);
    client.setOptions(ClusterClientOptions.builder()
        .socketOptions(socketOptions(options))
        .timeoutOptions(TimeoutOptions.enabled(options.commandTimeout()))
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
            .enablePeriodicRefresh(TOPOLOGY_REFRESH_PERIOD)
            .enableAllAdaptiveRefreshTriggers()
            .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_PAUSE)
            .refreshTriggersReconnectAttempts(2)
            .build())
        .build());
    listeners.forEach(client::addListener);
    Counter topologyChanges = Counter.builder(TOPOLOGY_CHANGES)
        .description("Redis Cluster topology changes seen (failovers, slots moved, nodes added)")
        .register(metrics);
    Disposable watching = client
        .getResources()
        .eventBus()
        .get()
        .filter(ClusterTopologyChangedEvent.class::isInstance)
        .subscribe(event -> topologyChanges.increment());
    try {
      StatefulRedisClusterConnection<String, String> shared = client.connect(StringCodec.UTF8);
      shared.setTimeout(options.commandTimeout());
      shared.setReadFrom(ReadFrom.UPSTREAM); // read-your-writes: see the class comment
      var commands = new Commands(shared.sync(), shared.async(), scriptLoads);
      // No SCRIPT LOAD up front: the cluster client sends it to every node and fails while any one
      // is down, which would keep this node from starting. Each node gets a script by EVAL on its
      // first use instead (counted in SCRIPT_LOADS); the connect has already read the topology.
      var computeOnce =
          new RedisComputeOnce(commands, options.keyPrefix(), options.commandTimeout());
      StatefulRedisClusterPubSubConnection<String, String> notices =
          client.connectPubSub(StringCodec.UTF8);
      notices.setTimeout(options.commandTimeout());
      notices.addListener(computeOnce.listener());
      notices.sync().subscribe(RedisComputeOnce.channel(options.keyPrefix()));
      return new RedisCoordination(
          client,
          List.of(watching::dispose, notices, shared),
          commands,
          true,
          computeOnce,
          options);
    } catch (RuntimeException e) { // RedisException, and whatever else the connect lets through
      watching.dispose();
      client.shutdown();
      throw new CoordinationException(
          "cannot connect to the Redis Cluster at " + where + ": " + e.getMessage(), e);
    }
  }

  private static SocketOptions socketOptions(Options options) {
    return SocketOptions.builder().connectTimeout(options.commandTimeout()).build();
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

  /** True when connected to a Redis Cluster. */
  public boolean isCluster() {
    return cluster;
  }

  /**
   * Empty when Redis answers in time and, on a cluster, says its state is ok (every slot served);
   * otherwise what is wrong, for {@code /health}.
   */
  public Optional<String> problem() {
    try {
      if (cluster) {
        String info = commands.sync().clusterInfo();
        return info.lines().anyMatch(line -> line.strip().equals("cluster_state:ok"))
            ? Optional.empty()
            : Optional.of("Redis Cluster is not ok: "
                + info.lines()
                    .filter(line -> line.startsWith("cluster_state:"))
                    .findFirst()
                    .orElse("no cluster_state in CLUSTER INFO"));
      }
      String pong = commands.sync().ping();
      return "PONG".equals(pong)
          ? Optional.empty()
          : Optional.of("Redis answered PING with " + pong);
    } catch (RedisException e) {
      return Optional.of("Redis does not answer: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    for (AutoCloseable connection : connections) {
      try {
        connection.close();
      } catch (Exception e) {
        // closing on shutdown: the client's shutdown below releases what is left
      }
    }
    client.shutdown();
  }
}

package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.RedisClusterUrl;
import dev.tidings.testing.RealServers;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.event.command.CommandListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A coordinator on the real local Redis (or a Redis Cluster) under a key prefix of its own, plus a
 * plain connection to look at the keys it wrote and to delete them afterwards, since other builds share
 * this Redis. On a cluster, the plain connection routes each key to its primary and scans them all.
 */
final class RedisTestServer implements AutoCloseable {
  final String prefix = "tidings-test:" + UUID.randomUUID() + ":";
  final RedisCoordination coordination;
  private final URI url;
  private final AbstractRedisClient inspector;
  private final StatefulConnection<String, String> connection;
  private final RedisClusterCommands<String, String> commands;

  RedisTestServer() {
    this(RealServers.redisUrl());
  }

  /** On the Redis (or cluster) at {@code url}. */
  RedisTestServer(URI url) {
    this.url = url;
    coordination = RedisCoordination.connect(
        url,
        new RedisCoordination.Options(prefix, RedisCoordination.Options.DEFAULT_COMMAND_TIMEOUT),
        new SimpleMeterRegistry());
    if (RedisClusterUrl.names(url)) {
      var cluster = RedisClusterClient.create(RedisClusterUrl.parse(url).seeds().stream()
          .map(seed -> RedisURI.create(seed.host(), seed.port()))
          .toList());
      StatefulRedisClusterConnection<String, String> clusterConnection = cluster.connect();
      inspector = cluster;
      connection = clusterConnection;
      commands = clusterConnection.sync();
    } else {
      var single = RedisClient.create(url.toString());
      StatefulRedisConnection<String, String> singleConnection = single.connect();
      inspector = single;
      connection = singleConnection;
      commands = singleConnection.sync();
    }
  }

  private final List<RedisCoordination> otherNodes = new ArrayList<>();

  /**
   * A second node on the same Redis and prefix, as another Tidings process would be; closed with this.
   * {@code listeners} see every command it sends.
   */
  synchronized RedisCoordination anotherNode(CommandListener... listeners) {
    var node = RedisCoordination.connect(
        url,
        new RedisCoordination.Options(prefix, RedisCoordination.Options.DEFAULT_COMMAND_TIMEOUT),
        new SimpleMeterRegistry(),
        List.of(listeners));
    otherNodes.add(node);
    return node;
  }

  /** The string at {@code key}, or null. */
  @Nullable String get(String key) {
    return commands.get(key);
  }

  /** Deletes one key, as Redis does when it expires. */
  void delete(String key) {
    commands.del(key);
  }

  /** Deletes every key under the prefix: what this prefix sees of a Redis restarted without persistence. */
  void deleteAll() {
    List<String> keys = keys();
    if (!keys.isEmpty()) commands.del(keys.toArray(String[]::new));
  }

  List<String> keys() {
    List<String> keys = new ArrayList<>();
    ScanCursor cursor = ScanCursor.INITIAL;
    do {
      KeyScanCursor<String> page =
          commands.scan(cursor, ScanArgs.Builder.matches(prefix + "*").limit(500));
      keys.addAll(page.getKeys());
      cursor = page;
    } while (!cursor.isFinished());
    return keys;
  }

  /** Every key under the prefix expires by itself: PTTL is positive (or the key just went, -2). */
  void assertEveryKeyHasATtl() {
    List<String> keys = keys();
    assertThat(keys).isNotEmpty();
    for (String key : keys) {
      assertThat(commands.pttl(key))
          .as("PTTL of %s", key)
          .satisfiesAnyOf(
              ttl -> assertThat(ttl).isPositive(), ttl -> assertThat(ttl).isEqualTo(-2));
    }
  }

  /** Redis keeps time by its own clock, so contract tests on it move time forward by waiting for real. */
  static void sleepFor(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Deletes every key under the prefix, as a restart of a Redis without persistence would. */
  void deleteEveryKey() {
    List<String> keys = keys();
    if (!keys.isEmpty()) commands.del(keys.toArray(String[]::new));
  }

  @Override
  public void close() {
    try {
      deleteAll();
    } finally {
      otherNodes.forEach(RedisCoordination::close);
      coordination.close();
      connection.close();
      inspector.shutdown();
    }
  }
}

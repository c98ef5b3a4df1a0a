package dev.tidings.storage;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on one PostgreSQL NOTIFY channel for the node's life, on a connection of its own, and hands
 * each notification of this node's schema to a {@link Listener}. Notifications sent while the
 * connection was down are lost for good, so the listener hears {@link Listener#lost()} before the
 * first notification of every (re)connection and treats whatever it knew as possibly stale.
 *
 * <p>A notification's payload is the schema that sent it, then one item per line: tests share one
 * database between schemas, and a channel is database-wide.
 */
public final class ChangeFeed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final Duration RETRY = Duration.ofSeconds(1);
  // Waiting for notifications sends nothing: a server that vanished without closing the connection
  // (its host died) is only noticed by asking it something now and then.
  private static final Duration PROBE = Duration.ofSeconds(5);
  private static final int PROBE_TIMEOUT_SECONDS = 3;

  /** What a feed tells. Called on the feed's one thread, never concurrently. */
  public interface Listener {
    /** Connected (again): what came before may have been missed. */
    void lost();

    /** One notification's items, in commit order with the notifications before it. */
    void changed(List<String> items);
  }

  private final Database database;
  private final String channel;
  private final Listener listener;
  private final Thread thread;
  private final Counter notifications;
  private final Counter reconnects;
  private volatile boolean closed;
  private volatile boolean listening;

  private ChangeFeed(Database database, String channel, Listener listener, MeterRegistry metrics) {
    if (!channel.matches("[a-z_]{1,63}")) throw new IllegalArgumentException("channel " + channel);
    this.database = database;
    this.channel = channel;
    this.listener = listener;
    this.notifications = Counter.builder("tidings_change_feed_notifications_total")
        .description("Notifications a node heard from PostgreSQL, by channel")
        .tag("channel", channel)
        .register(metrics);
    this.reconnects = Counter.builder("tidings_change_feed_connects_total")
        .description(
            "Times a node (re)connected its listener, by channel: each may have missed changes")
        .tag("channel", channel)
        .register(metrics);
    this.thread = Thread.ofVirtual().name("change-feed-" + channel).unstarted(this::run);
  }

  /** Starts listening at once; {@link Listener#lost()} comes first, once listening. */
  public static ChangeFeed start(
      Database database, String channel, Listener listener, MeterRegistry metrics) {
    var feed = new ChangeFeed(database, channel, listener, metrics);
    feed.thread.start();
    return feed;
  }

  /** Whether the feed is listening now (nothing can be missed while it is). */
  public boolean listening() {
    return listening;
  }

  private void run() {
    while (!closed) {
      try (Connection connection = database.dedicatedConnection()) {
        try (var statement = connection.createStatement()) {
          statement.execute("LISTEN " + channel);
        }
        PGConnection pg = connection.unwrap(PGConnection.class);
        listening = true;
        reconnects.increment();
        listener.lost();
        long nextProbe = System.nanoTime() + PROBE.toNanos();
        while (!closed) {
          PGNotification[] arrived = pg.getNotifications((int) POLL.toMillis());
          if (arrived != null) {
            for (PGNotification notification : arrived) deliver(notification.getParameter());
          }
          if (System.nanoTime() - nextProbe > 0) {
            if (!connection.isValid(PROBE_TIMEOUT_SECONDS))
              throw new SQLException("no answer within " + PROBE_TIMEOUT_SECONDS + " s", "08006");
            nextProbe = System.nanoTime() + PROBE.toNanos();
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (closed) return;
        LOG.warn("change feed {}: listener lost, reconnecting: {}", channel, e.toString());
      } finally {
        listening = false;
      }
      pause();
    }
  }

  private void deliver(String payload) {
    List<String> lines = Arrays.asList(payload.split("\n"));
    if (lines.isEmpty() || !lines.get(0).equals(database.schema())) return;
    notifications.increment();
    listener.changed(lines.subList(1, lines.size()));
  }

  private void pause() {
    try {
      Thread.sleep(RETRY);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      thread.join(POLL.multipliedBy(4));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

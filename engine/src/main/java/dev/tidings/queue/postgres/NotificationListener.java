package dev.tidings.queue.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds one connection that LISTENs for publishes and wakes the idle consumers of the queue named in
 * each notification. Consumers poll anyway every poll interval, so a dropped connection only makes
 * them slower until it is back.
 */
final class NotificationListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NotificationListener.class);

  private static final long CHECK_CLOSED_MILLIS = 500;

  private final DataSource dataSource;
  private final Wakeups wakeups;
  private final Duration pollInterval;
  private final Thread thread;
  private volatile boolean running = true;

  NotificationListener(DataSource dataSource, Wakeups wakeups, Duration pollInterval) {
    this.dataSource = dataSource;
    this.wakeups = wakeups;
    this.pollInterval = pollInterval;
    this.thread = Thread.ofVirtual().name("tidings-queue-listener").unstarted(this::run);
  }

  void start() {
    thread.start();
  }

  private void run() {
    while (running) {
      try (Connection connection = dataSource.getConnection()) {
        listen(connection);
      } catch (SQLException | RuntimeException e) {
        if (running) {
          log.warn(
              "queue notifications interrupted, consumers poll every {} until they are back: {}",
              pollInterval,
              e.toString());
          sleep(Duration.ofMillis(Math.min(pollInterval.toMillis(), 1000)));
        }
      }
    }
  }

  private void listen(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("LISTEN " + MessageTable.CHANNEL);
    }
    try {
      PGConnection pg = connection.unwrap(PGConnection.class);
      // Returns at once when a notification arrives;
      // the timeout only bounds how late close() is noticed.
      int timeoutMillis = (int) Math.clamp(pollInterval.toMillis(), 1, CHECK_CLOSED_MILLIS);
      while (running) {
        PGNotification[] notifications = pg.getNotifications(timeoutMillis);
        if (notifications == null) continue;
        for (PGNotification notification : notifications) wakeups.wake(notification.getParameter());
      }
    } finally {
      // The connection goes back to the pool; it must not keep listening there.
      try (Statement statement = connection.createStatement()) {
        statement.execute("UNLISTEN *");
      } catch (SQLException ignored) {
        // a broken connection is evicted by the pool anyway
      }
    }
  }

  private void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      running = false;
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    running = false;
    try {
      // getNotifications returns within CHECK_CLOSED_MILLIS;
      // the rest covers a reconnect in progress.
      if (!thread.join(Duration.ofSeconds(5))) thread.interrupt();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

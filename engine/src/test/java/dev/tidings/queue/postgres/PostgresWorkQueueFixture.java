package dev.tidings.queue.postgres;

import dev.tidings.storage.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/** What the PostgreSQL runs of the contract share, whichever server they run on. */
final class PostgresWorkQueueFixture {
  static final PostgresQueueOptions FAST = new PostgresQueueOptions(
      Duration.ofMillis(200), PostgresQueueOptions.DEFAULT_NOTIFY_INTERVAL);

  private PostgresWorkQueueFixture() {}

  /** Holds a lock that every INSERT into the message table waits for, until closed. */
  static AutoCloseable lockMessageTable(Database database) {
    try {
      Connection connection = database.dataSource().getConnection();
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.execute("LOCK TABLE work_queue_message IN SHARE MODE");
      }
      return () -> {
        try (connection) {
          connection.rollback();
          connection.setAutoCommit(true);
        }
      };
    } catch (SQLException e) {
      throw new IllegalStateException("cannot lock the message table", e);
    }
  }
}

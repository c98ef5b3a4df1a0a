package dev.tidings.delivery;

import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Poisoned receipts on the queue tables of the embedded PostgreSQL (surefire). */
@StartsServers
class PoisonedReceiptsTest extends PoisonedReceiptsContract {
  private static Database database;

  @BeforeAll
  static void openDatabase() {
    database = TestDatabases.embedded();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  @Override
  protected WorkQueue openQueue(MeterRegistry metrics) {
    return new PostgresWorkQueue(
        database, new PostgresQueueOptions(Duration.ofMillis(50), Duration.ofMillis(5)), metrics);
  }

  @Override
  protected Database database() {
    return database;
  }
}

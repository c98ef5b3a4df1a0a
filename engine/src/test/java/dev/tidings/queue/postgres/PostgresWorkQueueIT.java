package dev.tidings.queue.postgres;

import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.WorkQueueContract;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every test of {@link WorkQueueContract} (where the assertions are) on PostgreSQL queue tables in the
 * machine's real PostgreSQL (failsafe).
 */
class PostgresWorkQueueIT extends WorkQueueContract {
  private static Database database;

  @BeforeAll
  static void openDatabase() {
    RealServers.requirePostgres();
    database = TestDatabases.real();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  @Override
  protected WorkQueue openQueue() {
    return new PostgresWorkQueue(database, PostgresWorkQueueFixture.FAST, metrics);
  }

  @Override
  protected void crash(WorkQueue queue) {
    ((PostgresWorkQueue) queue).abandon();
  }

  @Override
  protected AutoCloseable stallPublishing(WorkQueue queue) {
    return PostgresWorkQueueFixture.lockMessageTable(database);
  }

  /** Measured: 5 to 42 ms on an idle consumer (the next due time bounds its sleep). */
  @Override
  protected Duration lateAtMost() {
    return Duration.ofSeconds(1);
  }

  @Override
  protected int publishBufferBound() {
    return 0; // a publish returns only after its commit
  }
}

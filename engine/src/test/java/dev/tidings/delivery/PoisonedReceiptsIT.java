package dev.tidings.delivery;

import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Poisoned receipts through the machine's RabbitMQ into its PostgreSQL (failsafe). */
class PoisonedReceiptsIT extends PoisonedReceiptsContract {
  private static Database database;

  @BeforeAll
  static void openDatabase() {
    RealServers.requireRabbitMq();
    RealServers.requirePostgres();
    database = TestDatabases.real();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  @Override
  protected WorkQueue openQueue(MeterRegistry metrics) {
    return RabbitWorkQueue.connect(
        RealServers.amqpUrl(), RabbitQueueOptions.defaults(), InstantSource.system(), metrics);
  }

  @Override
  protected Database database() {
    return database;
  }
}

package dev.tidings.tools;

import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;

/** Work-queue clients for benchmarks, which compare the adapters (and their earlier ways) in one run. */
public final class ThrowawayQueues {
  private ThrowawayQueues() {}

  /** Queue tables in {@code database}, as a node opens them. */
  public static WorkQueue queueTables(Database database) {
    return new PostgresWorkQueue(database, new SimpleMeterRegistry());
  }

  /** Queue tables that NOTIFY in every publish's transaction, as they did before the debounce. */
  public static WorkQueue queueTablesNotifyingEveryPublish(Database database) {
    return new PostgresWorkQueue(
        database,
        PostgresQueueOptions.defaults().withNotifyInterval(Duration.ZERO),
        new SimpleMeterRegistry());
  }

  public static WorkQueue rabbitMq(URI amqpUrl) {
    return RabbitWorkQueue.connect(amqpUrl, new SimpleMeterRegistry());
  }
}

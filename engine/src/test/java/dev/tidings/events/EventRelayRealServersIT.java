package dev.tidings.events;

import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;

/** The real servers: an external PostgreSQL and RabbitMQ. */
class EventRelayRealServersIT extends EventRelayContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }

  @Override
  protected WorkQueue openQueue(Database database) {
    return RabbitWorkQueue.connect(
        RealServers.amqpUrl(),
        RabbitQueueOptions.defaults(),
        InstantSource.system(),
        new SimpleMeterRegistry());
  }
}

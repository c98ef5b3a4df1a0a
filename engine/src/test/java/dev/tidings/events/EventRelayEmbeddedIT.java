package dev.tidings.events;

import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The embedded default: embedded PostgreSQL and the queue tables in it. */
class EventRelayEmbeddedIT extends EventRelayContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }

  @Override
  protected WorkQueue openQueue(Database database) {
    return new PostgresWorkQueue(database, new SimpleMeterRegistry());
  }
}

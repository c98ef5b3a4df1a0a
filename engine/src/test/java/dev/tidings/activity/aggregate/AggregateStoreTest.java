package dev.tidings.activity.aggregate;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

@StartsServers
class AggregateStoreTest extends AggregateStoreContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

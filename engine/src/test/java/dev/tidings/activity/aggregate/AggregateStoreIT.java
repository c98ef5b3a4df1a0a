package dev.tidings.activity.aggregate;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class AggregateStoreIT extends AggregateStoreContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

package dev.tidings.activity;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link ActivityIntakeContract}, on the embedded PostgreSQL. */
@StartsServers
class ActivityIntakeTest extends ActivityIntakeContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

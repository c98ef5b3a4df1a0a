package dev.tidings.audience;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

@StartsServers
class SuppressionServiceTest extends SuppressionContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

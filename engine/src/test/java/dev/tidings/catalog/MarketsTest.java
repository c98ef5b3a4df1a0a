package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link MarketsContract}, on the embedded PostgreSQL. */
@StartsServers
class MarketsTest extends MarketsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

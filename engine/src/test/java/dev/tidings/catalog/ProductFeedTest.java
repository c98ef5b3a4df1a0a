package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link ProductFeedContract}, on the embedded PostgreSQL. */
@StartsServers
class ProductFeedTest extends ProductFeedContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

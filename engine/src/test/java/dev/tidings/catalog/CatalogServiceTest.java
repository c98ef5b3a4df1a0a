package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link CatalogContract}, on the embedded PostgreSQL. */
@StartsServers
class CatalogServiceTest extends CatalogContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

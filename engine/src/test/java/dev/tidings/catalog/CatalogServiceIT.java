package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link CatalogContract}, on the machine's real PostgreSQL (failsafe). */
class CatalogServiceIT extends CatalogContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

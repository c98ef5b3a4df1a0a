package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class CatalogServiceTest extends CatalogContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

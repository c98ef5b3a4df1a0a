package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link ProductFeedContract}, on the machine's real PostgreSQL (failsafe). */
class ProductFeedIT extends ProductFeedContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

package dev.tidings.catalog;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link MarketsContract}, on the machine's real PostgreSQL (failsafe). */
class MarketsIT extends MarketsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

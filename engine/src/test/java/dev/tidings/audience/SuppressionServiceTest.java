package dev.tidings.audience;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class SuppressionServiceTest extends SuppressionContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

package dev.tidings.audience;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class SuppressionServiceIT extends SuppressionContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

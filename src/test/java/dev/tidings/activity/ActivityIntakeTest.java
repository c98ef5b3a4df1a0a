package dev.tidings.activity;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class ActivityIntakeTest extends ActivityIntakeContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

package dev.tidings.activity;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class ActivityIntakeIT extends ActivityIntakeContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

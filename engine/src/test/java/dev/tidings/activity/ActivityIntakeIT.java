package dev.tidings.activity;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link ActivityIntakeContract}, on the machine's real PostgreSQL (failsafe). */
class ActivityIntakeIT extends ActivityIntakeContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

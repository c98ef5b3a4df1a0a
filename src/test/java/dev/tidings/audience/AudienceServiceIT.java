package dev.tidings.audience;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class AudienceServiceIT extends AudienceContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

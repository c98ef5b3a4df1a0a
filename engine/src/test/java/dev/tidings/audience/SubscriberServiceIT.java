package dev.tidings.audience;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class SubscriberServiceIT extends SubscriberContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

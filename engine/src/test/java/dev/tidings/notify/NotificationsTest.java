package dev.tidings.notify;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class NotificationsTest extends NotificationsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

package dev.tidings.notify;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class NotificationsIT extends NotificationsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

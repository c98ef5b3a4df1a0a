package dev.tidings.notify;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

@StartsServers
class NotificationsTest extends NotificationsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

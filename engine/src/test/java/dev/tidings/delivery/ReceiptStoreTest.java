package dev.tidings.delivery;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

@StartsServers
class ReceiptStoreTest extends ReceiptStoreContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

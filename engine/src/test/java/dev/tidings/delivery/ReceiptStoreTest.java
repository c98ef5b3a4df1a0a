package dev.tidings.delivery;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class ReceiptStoreTest extends ReceiptStoreContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

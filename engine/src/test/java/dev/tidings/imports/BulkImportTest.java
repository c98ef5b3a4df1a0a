package dev.tidings.imports;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

@StartsServers
class BulkImportTest extends ImportContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

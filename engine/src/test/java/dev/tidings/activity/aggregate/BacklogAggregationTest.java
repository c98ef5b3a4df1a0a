package dev.tidings.activity.aggregate;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

@StartsServers
class BacklogAggregationTest extends BacklogAggregationContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

package dev.tidings.activity.aggregate;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

class BacklogAggregationIT extends BacklogAggregationContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

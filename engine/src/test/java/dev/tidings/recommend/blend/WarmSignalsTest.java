package dev.tidings.recommend.blend;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link WarmSignalsContract}, on the embedded PostgreSQL. */
@StartsServers
class WarmSignalsTest extends WarmSignalsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

package dev.tidings.journeys;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** The journeys' store on the embedded default. */
@StartsServers
class JourneyStoreTest extends JourneyStoreContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

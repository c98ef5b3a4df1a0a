package dev.tidings.journeys;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** The journeys' store on the real PostgreSQL. */
class JourneyStoreIT extends JourneyStoreContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

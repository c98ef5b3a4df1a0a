package dev.tidings.recommend;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link RecommenderContract}, on the embedded PostgreSQL. */
@StartsServers
class AffinityPopularityRecommenderTest extends RecommenderContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

package dev.tidings.recommend;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link RecommenderContract}, on the embedded PostgreSQL. */
class AffinityPopularityRecommenderTest extends RecommenderContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.embedded();
  }
}

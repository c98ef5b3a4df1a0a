package dev.tidings.recommend;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link RecommenderContract}, on the machine's real PostgreSQL (failsafe). */
class AffinityPopularityRecommenderIT extends RecommenderContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

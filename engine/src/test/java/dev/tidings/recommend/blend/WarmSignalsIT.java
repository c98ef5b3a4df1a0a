package dev.tidings.recommend.blend;

import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;

/** Every test of {@link WarmSignalsContract}, on the machine's real PostgreSQL (failsafe). */
class WarmSignalsIT extends WarmSignalsContract {
  @Override
  protected Database openDatabase() {
    return TestDatabases.real();
  }
}

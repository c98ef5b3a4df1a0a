package dev.tidings.coordination.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.Countdown.Finish;
import dev.tidings.coordination.Countdown.Lease;
import dev.tidings.coordination.CountdownContract;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link CountdownContract} on the countdown tables in the machine's real PostgreSQL,
 * whose clock decides leases, so time moves by waiting; plus what only a database gives: the state
 * outlives the process.
 */
class PostgresCountdownIT extends CountdownContract {
  private static Database database;

  @BeforeAll
  static void openDatabase() {
    RealServers.requirePostgres();
    database = TestDatabases.real();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  @Override
  protected Countdown create() {
    return new PostgresCountdown(database);
  }

  @Override
  protected void advance(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected Countdown loseEverything() {
    database.jdbi().useHandle(handle -> handle.execute("DELETE FROM countdown"));
    return countdown;
  }

  @Test
  void a_new_instance_over_the_same_database_sees_the_countdown_and_its_leases() {
    String name = uniqueName();
    assertThat(countdown.start(name, 3, "run-1", RETENTION)).isTrue();
    Lease held = countdown.claim(name, 0, "message-1", Duration.ofMinutes(1)).orElseThrow();
    Lease finished =
        countdown.claim(name, 1, "message-2", Duration.ofMinutes(1)).orElseThrow();
    assertThat(countdown.finish(finished)).isEqualTo(new Finish.Done(2));

    var spec = new ConnectionSpec(
        RealServers.postgresJdbcUrl(), Optional.empty(), Optional.empty(), database.schema(), 2);
    try (var reopened = Database.connect(spec, () -> {}, new SimpleMeterRegistry())) {
      Countdown restarted = new PostgresCountdown(reopened);

      assertThat(restarted.remaining(name)).hasValue(2);
      assertThat(restarted.start(name, 3, "run-1", RETENTION))
          .as("the run's own starter, retrying after the restart")
          .isTrue();
      assertThat(restarted.claim(name, 0, "message-9", LEASE))
          .as("still held by the live lease taken before the restart")
          .isEmpty();
      assertThat(restarted.claim(name, 0, "message-1", Duration.ofMinutes(1)))
          .as("its holder, redelivered after the restart, gets its lease back")
          .contains(held);
      assertThat(restarted.finish(finished))
          .as("a finish repeated after the restart answers the same")
          .isEqualTo(new Finish.Done(2));
      assertThat(restarted.finish(held)).isEqualTo(new Finish.Done(1));
      assertThat(countdown.remaining(name)).hasValue(1);
    }
  }
}

package dev.tidings.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Who last did something in a window: the people a win-back finds. */
@StartsServers
class ActivityHistoryTest {
  private static final Instant TO = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant FROM = TO.minus(Duration.ofDays(1));
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private Database database;

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
  }

  @AfterEach
  void close() {
    database.close();
  }

  private ActivityEvent bought(String user, Instant at) {
    return new ActivityEvent(
        Optional.empty(), user + run, EventType.PURCHASE, "p-1", at, 1, Optional.empty());
  }

  @Test
  void only_those_whose_latest_purchase_falls_in_the_window_are_found_page_by_page() {
    new ActivityIntake(database.jdbi(), InstantSource.system())
        .record(List.of(
            bought("a-ann", FROM.plus(Duration.ofHours(2))),
            bought("b-bob", FROM.plus(Duration.ofHours(3))),
            bought("b-bob", TO.plus(Duration.ofDays(3))),
            bought("c-cy", FROM.minus(Duration.ofHours(1))),
            bought("d-dee", FROM.plus(Duration.ofHours(20))),
            bought("d-dee", FROM.plus(Duration.ofHours(1)))));
    var history = new ActivityHistory(database.jdbi());
    List<String> found =
        history.lastDoneWithin(EventType.PURCHASE, FROM, TO, Optional.empty(), 100).stream()
            .filter(id -> id.endsWith(run))
            .toList();
    assertThat(found)
        .as("bob bought again since, cy before")
        .containsExactly("a-ann" + run, "d-dee" + run);
    assertThat(history.lastDoneWithin(EventType.PURCHASE, FROM, TO, Optional.of("a-ann" + run), 1))
        .containsExactly("d-dee" + run);
  }
}

package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.Database;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The journeys' store, run against each database a node may have. */
abstract class JourneyStoreContract {
  private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");

  private Database database;
  private JourneyStore store;

  protected abstract Database openDatabase();

  @BeforeEach
  void open() {
    database = openDatabase();
    store = new JourneyStore(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterEach
  void close() {
    database.close();
  }

  private static Journey cart(String name, Duration wait) {
    return new Journey(
        name,
        new Trigger.Did("cart", 1, Duration.ofHours(1)),
        new EntryRules(Duration.ofDays(3), null),
        List.of(
            new Step.Wait("wait", new Step.Until.For(wait), "reminder"),
            new Step.Send("reminder", 11, null)),
        "purchase",
        0.1);
  }

  @Test
  void an_edit_is_a_new_version_and_the_old_one_stays_as_it_was() {
    JourneyStore.Saved first = store.create(cart("Cart", Duration.ofHours(1)));
    assertThat(first.version()).isEqualTo(1);

    JourneyStore.Saved second =
        store.revise(first.id(), cart("Cart, sooner", Duration.ofMinutes(30))).orElseThrow();

    assertThat(second.version()).isEqualTo(2);
    assertThat(store.latest(first.id()).orElseThrow().journey())
        .isEqualTo(cart("Cart, sooner", Duration.ofMinutes(30)));
    assertThat(store.version(first.id(), 1).orElseThrow().journey())
        .as("people who entered on version 1 finish on it")
        .isEqualTo(cart("Cart", Duration.ofHours(1)));
    assertThat(store.list(java.util.Optional.empty(), 100)).singleElement().satisfies(listed -> {
      assertThat(listed.name()).isEqualTo("Cart, sooner");
      assertThat(listed.latestVersion()).isEqualTo(2);
    });
  }

  @Test
  void a_journey_that_does_not_exist_is_absent_not_made() {
    assertThat(store.revise(999_999, cart("X", Duration.ofHours(1)))).isEmpty();
    assertThat(store.latest(999_999)).isEmpty();
    assertThat(store.version(999_999, 1)).isEmpty();
    assertThat(store.list(java.util.Optional.empty(), 100)).isEmpty();
  }

  @Test
  void edits_at_the_same_time_each_get_a_version_of_their_own() throws Exception {
    long id = store.create(cart("Cart", Duration.ofHours(1))).id();
    try (var pool = Executors.newFixedThreadPool(4)) {
      List<Callable<Integer>> edits = List.of(
          () -> store.revise(id, cart("A", Duration.ofHours(2))).orElseThrow().version(),
          () -> store.revise(id, cart("B", Duration.ofHours(3))).orElseThrow().version(),
          () -> store.revise(id, cart("C", Duration.ofHours(4))).orElseThrow().version(),
          () -> store.revise(id, cart("D", Duration.ofHours(5))).orElseThrow().version());
      List<Integer> versions = new ArrayList<>();
      for (Future<Integer> version : pool.invokeAll(edits)) versions.add(version.get());
      assertThat(versions).containsExactlyInAnyOrder(2, 3, 4, 5);
    }
    assertThat(store.latest(id).orElseThrow().version()).isEqualTo(5);
  }
}

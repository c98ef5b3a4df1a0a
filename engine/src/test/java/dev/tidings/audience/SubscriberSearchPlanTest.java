package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A search must not have to read every subscriber: each of its three tests (id and email by their start,
 * name by any part) can be answered from an index of its own, so a miss costs a few index pages instead of
 * a walk of the whole table. Asked of the planner with plain scans forbidden: a test that no index can
 * answer shows up as a sequential scan.
 */
@StartsServers
class SubscriberSearchPlanTest {
  private static Database database;
  private static SubscriberService subscribers;

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    subscribers = new SubscriberService(database.jdbi(), InstantSource.system());
    database.jdbi().useHandle(handle -> handle.execute("""
        INSERT INTO subscribers (id, email, name, created_at, updated_at)
        SELECT 'p-' || n, 'p' || n || '@example.test', 'Person ' || n, now(), now()
          FROM generate_series(1, 2000) AS n"""));
    database.jdbi().useHandle(handle -> handle.execute("ANALYZE subscribers"));
  }

  @AfterAll
  static void stop() {
    database.close();
  }

  @Test
  void every_test_of_a_search_can_be_answered_from_an_index() {
    String plan = database.jdbi().withHandle(handle -> {
      handle.execute("SET enable_seqscan = off");
      handle.execute("SET enable_indexscan = off");
      try {
        return String.join(
            "\n",
            handle
                .createQuery("EXPLAIN " + SubscriberTable.SEARCH)
                .bind("after", (String) null)
                .bind("prefix", "zzqx%")
                .bind("part", "%zzqx%")
                .bind("limit", 50)
                .mapTo(String.class)
                .list());
      } finally {
        handle.execute("RESET enable_seqscan");
        handle.execute("RESET enable_indexscan");
      }
    });
    assertThat(plan)
        .as(plan)
        .contains("subscribers_id_start", "subscribers_email_start", "subscribers_name_part")
        .doesNotContain("Seq Scan");
  }

  @Test
  void the_search_still_finds_ids_and_emails_by_their_start_and_names_by_any_part() {
    assertThat(ids("P-19")).startsWith("p-19", "p-190", "p-1900").doesNotContain("p-119");
    assertThat(ids("p1999@")).containsExactly("p-1999");
    assertThat(ids("SON 1234")).containsExactly("p-1234");
    assertThat(ids("erso")).hasSize(50);
    assertThat(ids("zzqx")).isEmpty();
  }

  private static List<String> ids(String text) {
    return subscribers.search(new SubscriberSearch(text), Optional.empty(), 50).stream()
        .map(Subscriber::id)
        .toList();
  }
}

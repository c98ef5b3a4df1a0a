package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.architecture.ExecutedSql.Touch;
import dev.tidings.audience.SubscriberSql;
import dev.tidings.opentime.ShownSql;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** How a statement as executed is read: the tables it names, who named each, who ran it. */
class ExecutedSqlTest {
  @Test
  void the_tables_of_each_kind_of_statement_are_found_and_nothing_else() {
    assertThat(ExecutedSql.tablesIn(
            "SELECT s.id FROM subscribers s JOIN follows f ON f.subscriber_id = s.id"
                + " LEFT JOIN unnest(:ids::text[]) AS o (id) ON o.id = f.target_id"))
        .containsExactly("subscribers", "follows");
    assertThat(
            ExecutedSql.tablesIn(
                "INSERT INTO notification_buckets (day, subscriber_id)"
                    + " SELECT :day, id FROM public.subscribers ON CONFLICT (day) DO UPDATE SET flushed = 0"))
        .contains("notification_buckets", "subscribers");
    assertThat(ExecutedSql.tablesIn("UPDATE \"campaigns\" SET name = 'FROM follows' -- FROM nodes\n"
            + " WHERE id = 1 /* JOIN markets */"))
        .containsExactly("campaigns");
    assertThat(ExecutedSql.tablesIn("DELETE FROM content USING products p, markets m WHERE true"))
        .containsExactly("content", "products", "markets");
    assertThat(ExecutedSql.tablesIn("SELECT 1 FROM ONLY products, LATERAL (SELECT 1) x"))
        .containsExactly("products");
    assertThat(ExecutedSql.tablesIn("TRUNCATE nodes, countdown"))
        .containsExactly("nodes", "countdown");
    assertThat(ExecutedSql.tablesIn(
            "SELECT extract(epoch FROM st.first_at), trim(both FROM x) FROM generate_series(1, 2)"))
        .doesNotContain("products")
        .doesNotContain("generate_series");
  }

  @Test
  void a_published_fragment_is_its_owners_and_the_rest_the_callers() {
    String sql =
        "INSERT INTO notification_buckets (day, subscriber_id) SELECT :day, f.subscriber_id"
            + " FROM " + SubscriberSql.followers("f") + " JOIN " + ShownSql.shownProducts("m")
            + " ON m.message_id = f.target_id";

    assertThat(ExecutedSql.touches(sql, "notify"))
        .containsExactly(
            new Touch("notify", "notification_buckets"),
            new Touch("audience", "follows"),
            new Touch("opentime", "message_slots"));
    assertThat(ExecutedSql.crossings(sql, "notify", TableOwnershipTest.OWNERS)).isEmpty();
  }

  @Test
  void a_table_name_put_together_from_pieces_is_a_crossing_once_executed() {
    String sql = "SELECT count(*) FROM " + "subscri" + "bers";

    assertThat(ExecutedSql.crossings(sql, "notify", TableOwnershipTest.OWNERS))
        .extracting(ExecutedSql.Crossing::key, ExecutedSql.Crossing::owner)
        .containsExactly(Tuple.tuple("notify -> subscribers", "audience"));
  }

  @Test
  void a_fragment_marked_by_one_owner_naming_anothers_table_is_a_crossing_of_that_owner() {
    String sql = "SELECT 1 FROM campaigns c WHERE /*published by audience*/ EXISTS (SELECT 1 FROM"
        + " message_slots m) /*end audience*/";

    assertThat(ExecutedSql.crossings(sql, "campaign", TableOwnershipTest.OWNERS))
        .extracting(ExecutedSql.Crossing::key)
        .containsExactly("audience -> message_slots");
    assertThatThrownBy(() -> ExecutedSql.touches("SELECT 1 /*end audience*/", "campaign"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void the_caller_is_the_innermost_capability_past_the_plumbing_and_the_tests() {
    StackTraceElement[] stack = {
      frame("org.jdbi.v3.core.statement.SqlStatement"),
      frame("dev.tidings.architecture.OwnershipCheck"),
      frame("dev.tidings.storage.BatchedDelete"),
      frame("dev.tidings.Json"),
      frame("dev.tidings.imports.Staging"),
      frame("dev.tidings.delivery.ParkedReceipts$Sweep"),
      frame("dev.tidings.app.Retention"),
    };
    assertThat(ExecutedSql.callerOf(stack)).contains("delivery");
    assertThat(ExecutedSql.callerOf(List.of(stack).subList(0, 5).toArray(StackTraceElement[]::new)))
        .isEmpty();
  }

  private static StackTraceElement frame(String type) {
    return new StackTraceElement(type, "run", null, 1);
  }
}

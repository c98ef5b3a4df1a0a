package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.SubscriberSql;
import dev.tidings.campaign.send.LedgerSql;
import dev.tidings.opentime.ShownSql;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The row sources owners publish hand out exactly the columns they document, under those names, on
 * today's schema: what other capabilities read of them is this list and nothing else.
 */
@StartsServers
class PublishedColumnsTest {
  private static Database database;

  @BeforeAll
  static void open() {
    database = TestDatabases.embedded();
  }

  @AfterAll
  static void close() {
    database.close();
  }

  @Test
  void each_published_row_source_has_exactly_its_documented_columns() {
    assertThat(columns(SubscriberSql.SUBSCRIBERS, Map.of()))
        .containsExactly(
            "id",
            "email",
            "consent",
            "country",
            "city",
            "time_zone",
            "locale",
            "latitude",
            "longitude");
    assertThat(columns(SubscriberSql.followers("f"), Map.of()))
        .containsExactly("subscriber_id", "target_type", "target_id");
    assertThat(columns(
            SubscriberSql.within("n", "at_"), Map.of("at_lat", 52.0, "at_lon", 4.0, "at_km", 10.0)))
        .containsExactly("subscriber_id");
    assertThat(columns(ShownSql.shownProducts("m"), Map.of()))
        .containsExactly("message_id", "product_ids");
    assertThat(columns(LedgerSql.cohorts("c"), Map.of("campaign", 1L)))
        .containsExactly("subscriber_id", "cohort");
  }

  private static List<String> columns(String source, Map<String, Object> binds) {
    return database.jdbi().withHandle(handle -> {
      var query = handle.createQuery("SELECT * FROM " + source + " LIMIT 0");
      binds.forEach(query::bind);
      return query.scanResultSet((results, context) -> {
        ResultSetMetaData meta = results.get().getMetaData();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) names.add(meta.getColumnName(i));
        return names;
      });
    });
  }
}

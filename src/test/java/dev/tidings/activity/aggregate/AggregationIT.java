package dev.tidings.activity.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Events through the intake are counted into the aggregates in the same transaction, once. */
class AggregationIT {
  private static final Instant AT = Instant.parse("2026-11-23T12:00:00Z");
  private Database database;
  private ActivityIntake intake;
  private AggregateStore store;
  private final String suffix = UUID.randomUUID().toString().substring(0, 8);

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    store = new AggregateStore(database.jdbi());
    intake = new ActivityIntake(
        database.jdbi(),
        InstantSource.fixed(AT),
        ActivityIntake.DEFAULT_BATCH_EVENTS,
        new Aggregation(new AggregationDefinitions(database.jdbi(), Duration.ZERO), store));
    database
        .jdbi()
        .useHandle(handle -> handle.createUpdate("""
            INSERT INTO products (id, title, brand, category, price, currency, image_url,
                                  landing_url, created_at, updated_at)
            VALUES (:id, 'Boots', 'acme', 'shoes', 10, 'EUR', 'https://x.test/i.png',
                    'https://x.test/p', now(), now())""").bind("id", item()).execute());
  }

  @AfterEach
  void close() {
    database.jdbi().useHandle(handle -> {
      handle.execute("DELETE FROM aggregation_definitions WHERE name LIKE 'test_%'");
      handle.execute("DELETE FROM products WHERE id = ?", item());
    });
    database.close();
  }

  private String item() {
    return "p-" + suffix;
  }

  private String user() {
    return "u-" + suffix;
  }

  private ActivityEvent event(String id, EventType type, int quantity) {
    return new ActivityEvent(
        Optional.of(id + "-" + suffix),
        user(),
        type,
        item(),
        AT,
        quantity,
        Optional.of(BigDecimal.ONE));
  }

  private double value(String key) {
    var parsed = AggregateKey.parse(key);
    return store.read(parsed.hashKey(), parsed.rangeKey(), parsed.rangeKey(), 10).stream()
        .filter(entry -> entry.key().equals(parsed))
        .mapToDouble(AggregateStore.Entry::value)
        .sum();
  }

  @Test
  void stored_events_are_counted_once_by_the_declared_aggregations_and_replays_never() {
    intake.record(List.of(
        event("e1", EventType.VIEW, 1),
        event("e2", EventType.PURCHASE, 3),
        event("e2", EventType.PURCHASE, 3)));
    intake.record(List.of(event("e1", EventType.VIEW, 1), event("e3", EventType.VIEW, 1)));

    String user = "s@user:s@" + user();
    assertThat(value(user + ":s@brand:s@acme:s@user_brand:s@affinity:b@all")).isEqualTo(3.0);
    assertThat(value(user + ":s@category:s@shoes:s@user_category:s@affinity:b@2026-11"))
        .isEqualTo(3.0);
    assertThat(value(user + ":s@item:s@" + item() + ":s@user_item_purchases:s@buy_again:b@all"))
        .as("quantity, counted once although the purchase came twice")
        .isEqualTo(3.0);
    assertThat(value("s@item:s@" + item() + ":s@item_popularity:s@popularity:b@2026-11-23"))
        .isEqualTo(3.0);
  }

  @Test
  void a_definition_added_as_data_counts_from_then_on_and_a_broken_one_is_left_out() {
    intake.record(List.of(event("before", EventType.ADD_TO_CART, 2)));
    database.jdbi().useHandle(handle -> {
      handle.execute("""
          INSERT INTO aggregation_definitions (name, definition) VALUES
            ('test_cart_revenue', '{"events": ["add_to_cart"], "groupBy": ["brand"],
              "scopes": ["year"], "measure": "revenue", "algorithm": "trending"}'),
            ('test_broken', '{"events": ["teleport"], "groupBy": ["user"], "scopes": ["all"],
              "measure": "events", "algorithm": "x"}')""");
    });
    intake.record(List.of(event("after", EventType.ADD_TO_CART, 2)));

    assertThat(value("s@brand:s@acme:s@test_cart_revenue:s@trending:b@2026")).isEqualTo(2.0);
    assertThat(new AggregationDefinitions(database.jdbi(), Duration.ZERO).enabled())
        .extracting(AggregationDefinition::name)
        .contains("test_cart_revenue", "item_popularity")
        .doesNotContain("test_broken");
  }
}

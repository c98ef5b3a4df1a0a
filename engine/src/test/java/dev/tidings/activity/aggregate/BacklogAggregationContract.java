package dev.tidings.activity.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.Json;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the counting of stored events into the aggregates must do on every PostgreSQL, embedded and
 * real: each stored event counted once by the declared aggregations, whichever way it came in and
 * however many counters run; replays never; pairs of a session's items counted once, both ways.
 */
@Timeout(120)
public abstract class BacklogAggregationContract {
  private static final Instant AT = Instant.parse("2026-11-23T12:00:00Z");
  private Database database;
  private ActivityIntake intake;
  private AggregateStore store;
  private BacklogAggregation aggregation;
  private final String suffix = UUID.randomUUID().toString().substring(0, 8);

  protected abstract Database openDatabase();

  @BeforeEach
  void open() {
    database = openDatabase();
    store = new AggregateStore(database.jdbi());
    intake = new ActivityIntake(database.jdbi(), InstantSource.fixed(AT));
    aggregation = new BacklogAggregation(
        database.jdbi(),
        new AggregationDefinitions(database.jdbi(), Duration.ZERO),
        store,
        new SimpleMeterRegistry());
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

  private ActivityEvent inSession(String session, EventType type, String item) {
    return inSession(user(), session, type, item);
  }

  private ActivityEvent inSession(String who, String session, EventType type, String item) {
    return new ActivityEvent(
        Optional.empty(),
        who,
        type,
        item,
        AT,
        1,
        Optional.empty(),
        Optional.of(session + "-" + suffix),
        Map.of());
  }

  private long countAll() {
    long counted = 0;
    int round;
    while ((round = aggregation.countOnce(1_000)) > 0) counted += round;
    return counted;
  }

  private double value(String key) {
    var parsed = AggregateKey.parse(key);
    return store.read(parsed.hashKey(), parsed.rangeKey(), parsed.rangeKey(), 10).stream()
        .filter(entry -> entry.key().equals(parsed))
        .mapToDouble(AggregateStore.Entry::value)
        .sum();
  }

  private double coView(String a, String b) {
    return value("s@item:s@" + a + ":s@co_item:s@" + b + ":s@co_view:s@cooccurrence:b@all");
  }

  @Test
  void a_new_installation_counts_the_standard_aggregations() {
    var stored = new AggregationDefinitions(database.jdbi(), Duration.ZERO).reload();
    assertThat(stored)
        .as("what the migrations install is what an offline replay counts")
        .containsExactlyInAnyOrderElementsOf(StandardAggregations.all());
  }

  @Test
  void counting_in_memory_gives_the_totals_a_counting_round_writes() {
    String a = "a-" + suffix;
    String b = "b-" + suffix;
    String other = "v-" + suffix;
    List<ActivityEvent> events = List.of(
        inSession("s1", EventType.VIEW, a),
        inSession("s1", EventType.VIEW, b),
        inSession("s1", EventType.VIEW, a),
        inSession("s1", EventType.PURCHASE, b),
        inSession("s1", EventType.PURCHASE, item()),
        event("e1", EventType.PURCHASE, 4),
        event("e2", EventType.VIEW, 1),
        new ActivityEvent(
            Optional.empty(),
            other,
            EventType.PURCHASE,
            a,
            AT.plusSeconds(86_400),
            2,
            Optional.empty(),
            Optional.of("s2-" + suffix),
            Map.of()),
        new ActivityEvent(
            Optional.empty(),
            other,
            EventType.PURCHASE,
            item(),
            AT.plusSeconds(86_401),
            1,
            Optional.empty(),
            Optional.of("s2-" + suffix),
            Map.of()));
    intake.record(events.subList(0, 4));
    countAll();
    intake.record(events.subList(4, events.size()));
    countAll();
    var memory = new MemoryCounting(
        StandardAggregations.all(),
        id -> id.equals(item())
            ? new ItemFacts(Optional.of("acme"), Optional.of("shoes"))
            : ItemFacts.UNKNOWN);
    memory.count(events.subList(0, 4));
    memory.count(events.subList(4, events.size()));

    var written = new HashMap<AggregateKey, Double>();
    for (String prefix : List.of("s@user:s@" + user() + ":", "s@user:s@" + other + ":"))
      store.read(prefix, "", "", 10_000).forEach(e -> written.put(e.key(), e.value()));
    for (String id : List.of(a, b, item()))
      store
          .read("s@item:s@" + id + ":", "", "", 10_000)
          .forEach(e -> written.put(e.key(), e.value()));
    var inMemory = new HashMap<AggregateKey, Double>(memory.totals());
    inMemory.values().removeIf(value -> value == 0);
    written.values().removeIf(value -> value == 0);
    assertThat(written).as("pairs, people and purchases were counted").hasSizeGreaterThan(20);
    assertThat(inMemory).isEqualTo(written);
  }

  @Test
  void stored_events_wait_until_counted_once_by_the_declared_aggregations_and_replays_never() {
    intake.record(List.of(
        event("e1", EventType.VIEW, 1),
        event("e2", EventType.PURCHASE, 3),
        event("e2", EventType.PURCHASE, 3)));
    intake.record(List.of(event("e1", EventType.VIEW, 1), event("e3", EventType.VIEW, 1)));
    String user = "s@user:s@" + user();
    String popularity = "s@item:s@" + item() + ":s@item_popularity:s@popularity:b@2026-11-23";
    assertThat(aggregation.waiting()).isEqualTo(3);
    assertThat(value(popularity)).as("nothing is counted before a round").isZero();
    var metrics = new SimpleMeterRegistry();
    BacklogGauges.register(metrics, aggregation, InstantSource.fixed(AT.plusSeconds(90)));
    assertThat(metrics.get(BacklogGauges.BACKLOG).gauge().value()).isEqualTo(3);
    assertThat(metrics.get(BacklogGauges.LAG).gauge().value()).isEqualTo(90);

    assertThat(countAll()).isEqualTo(3);

    assertThat(aggregation.waiting()).isZero();
    assertThat(metrics.get(BacklogGauges.BACKLOG).gauge().value()).isZero();
    assertThat(metrics.get(BacklogGauges.LAG).gauge().value()).isZero();
    assertThat(value(user + ":s@brand:s@acme:s@user_brand:s@affinity:b@all")).isEqualTo(3.0);
    assertThat(value(user + ":s@category:s@shoes:s@user_category:s@affinity:b@2026-11"))
        .isEqualTo(3.0);
    assertThat(value(user + ":s@item:s@" + item() + ":s@user_item_purchases:s@buy_again:b@all"))
        .as("one order (not its quantity of 3), counted once although the purchase came twice")
        .isEqualTo(1.0);
    assertThat(value(
            user + ":s@item:s@" + item() + ":s@user_item_views:s@recently_viewed:b@2026-11-23"))
        .isEqualTo(2.0);
    assertThat(value(popularity))
        .as("popularity counts people: one, whatever it did")
        .isEqualTo(1.0);
    assertThat(countAll()).as("a second pass finds nothing to count").isZero();
    assertThat(value(popularity)).isEqualTo(1.0);
  }

  @Test
  void imported_events_are_counted_like_posted_ones() throws Exception {
    String lines = """
        {"userId": "%1$s", "type": "view", "itemId": "%2$s", "timestamp": "2026-11-23T10:00:00Z"}
        {"userId": "%1$s", "type": "view", "itemId": "%2$s", "timestamp": "2026-11-23T10:01:00Z"}
        """.formatted(user(), item());
    var report = intake.importEvents(
        new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)),
        Format.JSON_LINES,
        ImportOptions.defaults());
    assertThat(report.imported()).isEqualTo(2);

    assertThat(countAll()).isEqualTo(2);

    assertThat(value("s@item:s@" + item() + ":s@item_popularity:s@popularity:b@all"))
        .as("one person on one day")
        .isEqualTo(1.0);
  }

  @Test
  void items_of_one_session_are_paired_once_both_ways_and_a_return_to_an_item_adds_nothing() {
    String a = "a-" + suffix;
    String b = "b-" + suffix;
    String c = "c-" + suffix;
    intake.record(List.of(
        inSession("s1", EventType.VIEW, a),
        inSession("s1", EventType.VIEW, b),
        inSession("s1", EventType.VIEW, a)));
    intake.record(
        List.of(inSession("s1", EventType.ADD_TO_CART, c), inSession("s1", EventType.PURCHASE, b)));
    String other = "w-" + suffix;
    intake.record(List.of(
        inSession(other, "s2", EventType.VIEW, a),
        inSession(other, "s2", EventType.VIEW, b),
        inSession("s3", EventType.PURCHASE, a),
        inSession("s3", EventType.PURCHASE, c),
        inSession("s4", EventType.VIEW, a),
        inSession("s4", EventType.VIEW, b)));
    countAll();

    assertThat(coView(a, b))
        .as("two people (s1, and the other's s2); s4 is the first person again that day")
        .isEqualTo(2.0);
    assertThat(coView(b, a)).isEqualTo(2.0);
    assertThat(coView(a, c)).isEqualTo(1.0);
    assertThat(coView(c, b)).isEqualTo(1.0);
    assertThat(coView(a, a)).isZero();
    assertThat(value("s@item:s@" + a + ":s@co_item:s@" + c + ":s@co_purchase:s@cooccurrence:b@all"))
        .as("bought together in s3 only: s1's purchase of b had no other purchase before it")
        .isEqualTo(1.0);
    assertThat(value("s@item:s@" + b + ":s@co_item:s@" + c + ":s@co_purchase:s@cooccurrence:b@all"))
        .isZero();
  }

  @Test
  void concurrent_counters_count_every_event_exactly_once() throws Exception {
    var events = new ArrayList<ActivityEvent>();
    // 300 people, each viewing the item ten times, their views spread over every batch and round
    for (int i = 0; i < 3_000; i++)
      events.add(new ActivityEvent(
          Optional.of("c" + i + "-" + suffix),
          "u" + (i % 300) + "-" + suffix,
          EventType.VIEW,
          item(),
          AT.plusMillis(i),
          1,
          Optional.empty()));
    for (int i = 0; i < 3; i++) intake.record(events.subList(i * 1_000, (i + 1) * 1_000));

    try (var threads = Executors.newFixedThreadPool(4)) {
      var counted = new ArrayList<Future<Long>>();
      for (int i = 0; i < 4; i++)
        counted.add(threads.submit(() -> {
          long mine = 0;
          int round;
          while ((round = aggregation.countOnce(97)) > 0) mine += round;
          return mine;
        }));
      long total = 0;
      for (Future<Long> future : counted) total += future.get();
      assertThat(total).isEqualTo(3_000);
    }
    String popularity = "s@item:s@" + item() + ":s@item_popularity:s@popularity";
    assertThat(value(popularity + ":b@all")).as("one per person").isEqualTo(300.0);
    assertThat(value(popularity + ":b@2026-11-23")).isEqualTo(300.0);
    assertThat(value("s@user:s@u7-" + suffix + ":s@item:s@" + item()
            + ":s@user_item_views:s@recently_viewed:b@2026-11-23"))
        .as("a person's own aggregates count every event")
        .isEqualTo(10.0);
  }

  @Test
  void a_person_adds_one_to_popularity_a_day_across_rounds_and_a_rebuild_counts_them_once() {
    String popularity = "s@item:s@" + item() + ":s@item_popularity:s@popularity";
    intake.record(List.of(event("d1", EventType.VIEW, 1), event("d2", EventType.CLICK, 1)));
    countAll();
    intake.record(List.of(event("d3", EventType.PURCHASE, 1)));
    countAll();
    var nextDay = new ActivityEvent(
        Optional.of("d4-" + suffix),
        user(),
        EventType.VIEW,
        item(),
        AT.plus(Duration.ofDays(1)),
        1,
        Optional.empty());
    intake.record(List.of(nextDay));
    countAll();

    assertThat(value(popularity + ":b@2026-11-23")).isEqualTo(1.0);
    assertThat(value(popularity + ":b@2026-11-24")).isEqualTo(1.0);
    assertThat(value(popularity + ":b@all")).as("one person on two days").isEqualTo(2.0);

    aggregation.rebuild("item_popularity", 2, counted -> {});
    assertThat(value(popularity + ":b@2026-11-23")).isEqualTo(1.0);
    assertThat(value(popularity + ":b@all")).isEqualTo(2.0);
  }

  @Test
  void who_counted_on_a_day_is_dropped_with_the_days_aggregates() {
    intake.record(List.of(event("r1", EventType.VIEW, 1)));
    countAll();
    assertThat(peopleDays()).containsExactly("aggregate_people_20261123");

    store.dropDaysBefore(LocalDate.of(2026, 11, 24));

    assertThat(peopleDays()).isEmpty();
    assertThat(value("s@item:s@" + item() + ":s@item_popularity:s@popularity:b@2026-11-23"))
        .isZero();
  }

  private List<String> peopleDays() {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
                + " WHERE i.inhparent = 'aggregate_people'::regclass ORDER BY 1")
            .mapTo(String.class)
            .list());
  }

  @Test
  void a_new_aggregation_counts_what_arrives_after_it_and_a_rebuild_counts_history_once() {
    intake.record(List.of(event("before", EventType.ADD_TO_CART, 2)));
    countAll();
    var definitions = new AggregationDefinitions(database.jdbi(), Duration.ZERO);
    definitions.put("test_cart_quantity", Json.MAPPER.readTree("""
            {"events": ["add_to_cart"], "groupBy": ["item"], "scopes": ["year"],
             "measure": "quantity", "algorithm": "trending"}"""), true);
    intake.record(List.of(event("after", EventType.ADD_TO_CART, 5)));
    countAll();
    String key = "s@item:s@" + item() + ":s@test_cart_quantity:s@trending:b@2026";
    assertThat(value(key)).as("only the event after it").isEqualTo(5.0);

    intake.record(List.of(event("waiting", EventType.ADD_TO_CART, 7)));
    var seen = new ArrayList<Long>();
    assertThat(aggregation.rebuild("test_cart_quantity", 1, seen::add)).isEqualTo(2);
    assertThat(seen).hasSize(2);
    assertThat(value(key))
        .as("history counted again, the waiting event not yet")
        .isEqualTo(7.0);
    countAll();
    assertThat(value(key)).isEqualTo(14.0);
    aggregation.rebuild("test_cart_quantity", 100, seen::add);
    assertThat(value(key)).as("a second rebuild counts nothing twice").isEqualTo(14.0);
    assertThat(value("s@item:s@" + item() + ":s@item_popularity:s@popularity:b@all"))
        .as("other aggregations are left alone (one person)")
        .isEqualTo(1.0);
  }

  @Test
  void a_declaration_that_does_not_read_is_refused_and_a_stored_one_that_does_not_is_left_out() {
    var definitions = new AggregationDefinitions(database.jdbi(), Duration.ZERO);
    assertThatThrownBy(() -> definitions.put("test_bad", Json.MAPPER.readTree("""
                {"events": ["teleport"], "groupBy": ["user"], "scopes": ["all"],
                 "measure": "events", "algorithm": "x"}"""), true))
        .hasMessageContaining("teleport");
    database.jdbi().useHandle(handle -> handle.execute("""
        INSERT INTO aggregation_definitions (name, definition) VALUES
          ('test_broken', '{"events": ["teleport"], "groupBy": ["user"], "scopes": ["all"],
            "measure": "events", "algorithm": "x"}')"""));
    assertThat(definitions.enabled())
        .extracting(AggregationDefinition::name)
        .contains("item_popularity", "co_view")
        .doesNotContain("test_broken", "test_bad");
    assertThatThrownBy(() -> aggregation.rebuild("test_broken", 10, seq -> {}))
        .hasMessageContaining("no enabled aggregation named 'test_broken'");
  }
}

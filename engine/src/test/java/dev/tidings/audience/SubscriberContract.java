package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.coordination.Race;
import dev.tidings.storage.Database;
import dev.tidings.storage.StoredRows;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What every database behind {@link SubscriberService} must do. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class SubscriberContract {
  static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
  /** More writers than the test pool's connections, so some always wait on others' statements. */
  private static final int WRITERS = 16;

  private static final int ROUNDS = 10;
  private Database database;
  private SubscriberService subscribers;
  private FollowService follows;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    subscribers = new SubscriberService(database.jdbi(), InstantSource.fixed(NOW));
    follows = new FollowService(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE subscribers, follows"));
  }

  static Subscriber subscriber(String id, String email) {
    return subscriber(id, email, "Ada " + id);
  }

  static Subscriber subscriber(String id, String email, String name) {
    return new Subscriber(
        id,
        email,
        Optional.of(name),
        Locale.forLanguageTag("de-DE"),
        ZoneId.of("Europe/Berlin"),
        Optional.of(new Location(
            Optional.of(new GeoPoint(52.52, 13.405)), Optional.of("Berlin"), Optional.of("DE"))),
        Consent.SUBSCRIBED);
  }

  @Test
  void a_subscriber_put_is_read_back_by_id_and_by_email_in_any_case() {
    Subscriber ada = subscriber("s1", "Ada@example.com");
    assertThat(subscribers.put(subscriber("s1", "Ada@Example.com")))
        .as("kept with the domain in lower case")
        .isEqualTo(ada);
    assertThat(subscribers.get("s1")).contains(ada);
    assertThat(subscribers.findByEmail("ada@example.COM")).contains(ada);
  }

  @Test
  void a_subscriber_with_only_the_required_fields_reads_back_with_defaults() {
    var bare = new Subscriber(
        "s2",
        "b@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneOffset.UTC,
        Optional.empty(),
        Consent.PENDING);
    subscribers.put(bare);
    assertThat(subscribers.get("s2")).contains(bare);
  }

  @Test
  void put_updates_and_an_email_of_another_subscriber_is_refused() {
    subscribers.put(subscriber("s1", "a@example.com"));
    subscribers.put(subscriber("s1", "new@example.com"));
    assertThat(subscribers.get("s1").orElseThrow().email()).isEqualTo("new@example.com");
    assertThatThrownBy(() -> subscribers.put(subscriber("s2", "NEW@example.com")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("email NEW@example.com already belongs to subscriber s1");
    subscribers.put(subscriber("s2", "b@example.com"));
    assertThatThrownBy(() -> subscribers.put(subscriber("s2", "new@example.com")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("email new@example.com already belongs to subscriber s1");
    assertThat(subscribers.get("s2").orElseThrow().email()).isEqualTo("b@example.com");
    assertThat(subscribers.count()).isEqualTo(2);
  }

  @Test
  void create_stores_a_new_id_and_leaves_an_existing_one_alone() {
    Subscriber ada = subscriber("s1", "a@example.com");
    assertThat(subscribers.create(ada)).contains(ada);
    subscribers.put(subscriber("s2", "b@example.com"));
    assertThat(subscribers.create(subscriber("s1", "other@example.com"))).isEmpty();
    // An existing id answers first, even when the email is someone else's too.
    assertThat(subscribers.create(subscriber("s1", "b@example.com"))).isEmpty();
    assertThat(subscribers.get("s1")).contains(ada);
  }

  @Test
  void create_refuses_an_email_of_another_subscriber_and_names_its_owner() {
    subscribers.put(subscriber("s1", "a@example.com"));
    assertThatThrownBy(() -> subscribers.create(subscriber("s2", "A@example.com")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("email A@example.com already belongs to subscriber s1");
    assertThat(subscribers.get("s2")).isEmpty();
    assertThat(subscribers.count()).isEqualTo(1);
  }

  @Test
  void of_concurrent_creates_of_one_id_exactly_one_succeeds_and_its_row_is_stored() {
    for (int round = 0; round < ROUNDS; round++) {
      String id = "race-" + round;
      List<Subscriber> candidates = IntStream.range(0, WRITERS)
          .mapToObj(i -> subscriber(id, id + "-" + i + "@example.com"))
          .toList();
      List<Optional<Subscriber>> results =
          Race.together(candidates, subscribers::create, Duration.ofSeconds(30));
      assertThat(results).filteredOn(Optional::isPresent).hasSize(1);
      int winner = indexOfPresent(results);
      assertThat(results.get(winner)).contains(candidates.get(winner));
      assertThat(subscribers.get(id)).contains(candidates.get(winner));
    }
    assertThat(subscribers.count()).isEqualTo(ROUNDS);
  }

  @Test
  void concurrent_creates_of_one_id_with_one_email_are_conflicts_not_an_email_of_another() {
    for (int round = 0; round < ROUNDS; round++) {
      String id = "same-" + round;
      List<Subscriber> candidates = IntStream.range(0, WRITERS)
          .mapToObj(i -> subscriber(id, id + "@example.com", "Writer " + i))
          .toList();
      List<Optional<Subscriber>> results =
          Race.together(candidates, subscribers::create, Duration.ofSeconds(30));
      assertThat(results).filteredOn(Optional::isPresent).hasSize(1);
      assertThat(subscribers.get(id)).contains(candidates.get(indexOfPresent(results)));
    }
  }

  @Test
  void concurrent_puts_of_one_new_subscriber_all_succeed() {
    for (int round = 0; round < ROUNDS; round++) {
      String id = "put-" + round;
      List<Subscriber> candidates = IntStream.range(0, WRITERS)
          .mapToObj(i -> subscriber(id, id + "@example.com", "Writer " + i))
          .toList();
      assertThat(Race.together(candidates, subscribers::put, Duration.ofSeconds(30)))
          .isEqualTo(candidates);
      assertThat(subscribers.get(id))
          .hasValueSatisfying(s -> assertThat(candidates).contains(s));
    }
    assertThat(subscribers.count()).isEqualTo(ROUNDS);
  }

  private static int indexOfPresent(List<? extends Optional<?>> results) {
    return IntStream.range(0, results.size())
        .filter(i -> results.get(i).isPresent())
        .findFirst()
        .orElseThrow();
  }

  @Test
  void subscribers_page_in_id_order_and_delete_takes_their_follows() {
    for (int i = 0; i < 7; i++) subscribers.put(subscriber("s" + i, "u" + i + "@example.com"));
    assertThat(subscribers.list(Optional.empty(), 3))
        .extracting(Subscriber::id)
        .containsExactly("s0", "s1", "s2");
    assertThat(subscribers.list(Optional.of("s2"), 3))
        .extracting(Subscriber::id)
        .containsExactly("s3", "s4", "s5");
    assertThat(subscribers.list(Optional.of("s5"), 3))
        .extracting(Subscriber::id)
        .containsExactly("s6");
    follows.follow(new Follow("s1", new FollowTarget(TargetType.BRAND, "acme"), NOW));
    assertThat(subscribers.delete("s1")).isTrue();
    assertThat(subscribers.delete("s1")).isFalse();
    assertThat(follows.followers(new FollowTarget(TargetType.BRAND, "acme"), Optional.empty(), 10))
        .isEmpty();
  }

  @Test
  void a_page_limit_out_of_range_is_invalid_input() {
    assertThatThrownBy(() -> subscribers.list(Optional.empty(), SubscriberService.MAX_PAGE + 1))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("limit must be 1..1000, got 1001");
  }

  @Test
  void invalid_subscribers_say_what_is_wrong() {
    assertThatThrownBy(() -> new Subscriber(
            "s1",
            null,
            Optional.of("two\nlines"),
            Locale.ENGLISH,
            ZoneOffset.UTC,
            Optional.empty(),
            Consent.SUBSCRIBED))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactly(
                    "missing required field 'email'", "name must not contain line breaks"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"no at sign", "a>,<victim@evil.example", "Ada <ada@example.com>", "a@[127.0.0.1]"})
  void a_subscriber_whose_email_is_not_one_bare_address_is_not_written(String email) {
    assertThatThrownBy(() -> subscribers.put(subscriber("bad", email)))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems()).singleElement().asString().startsWith("email must "));
    assertThatThrownBy(() -> subscribers.create(subscriber("bad", email)))
        .isInstanceOf(InvalidInputException.class);
    assertThat(subscribers.get("bad")).isEmpty();
  }

  /** A subscriber as an earlier version may have stored them: straight into the table. */
  private void storedEarlier(String id, String name, String timeZone, String city, String country) {
    database
        .jdbi()
        .useHandle(handle -> handle
            .createUpdate("""
            INSERT INTO subscribers (id, email, name, locale, time_zone, city, country, consent,
                                     created_at, updated_at)
            VALUES (:id, :id || '@example.com', :name, 'en', :zone, :city, :country, 'subscribed',
                    now(), now())""")
            .bind("id", id)
            .bind("name", name)
            .bind("zone", timeZone)
            .bind("city", city)
            .bind("country", country)
            .execute());
  }

  @Test
  void a_subscriber_an_earlier_version_stored_is_read_without_what_today_refuses_and_repaired() {
    storedEarlier("old-1", "Ann\nBell", "Mars/Olympus_Mons", "Lyon", "XX");
    var unreadable = StoredRows.of(database.jdbi());
    double before = unreadable.counted("subscribers", "country");

    Subscriber old = subscribers.get("old-1").orElseThrow();

    assertThat(old.name()).isEmpty();
    assertThat(old.timeZone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(old.location()).hasValueSatisfying(location -> {
      assertThat(location.city()).contains("Lyon");
      assertThat(location.country()).isEmpty();
    });
    assertThat(subscribers.list(Optional.empty(), 10))
        .extracting(Subscriber::id)
        .contains("old-1");
    assertThat(unreadable.counted("subscribers", "country")).isEqualTo(before + 2);

    var repair = subscribers.storedRowRepair();
    var first = repair.repairSome(Optional.empty(), 100);
    assertThat(first.repaired())
        .containsExactlyInAnyOrderEntriesOf(Map.of("name", 1L, "time_zone", 1L, "country", 1L));
    assertThat(subscribers.get("old-1")).contains(old);
    var again = repair.repairSome(Optional.empty(), 100);
    assertThat(again.repaired()).isEmpty();
    assertThat(again.unrepairable()).isEmpty();
  }
}

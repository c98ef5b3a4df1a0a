package dev.tidings.recommend.blend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Follow;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.TargetType;
import dev.tidings.events.Broadcasts;
import dev.tidings.events.activity.SignalsChanged;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What a node's warm memory of users' signals must do on every PostgreSQL: answer exactly what the
 * database would, say "none" without a read only while it holds everyone, and forget a user the
 * moment any statement changes their aggregates or follows.
 */
@TestInstance(TestInstance.Lifecycle.PER_METHOD)
@Timeout(60)
abstract class WarmSignalsContract {
  private static final Instant NOW = Instant.parse("2026-06-15T10:00:00Z");
  private static final LocalDate TODAY = LocalDate.of(2026, 6, 15);
  private static final LocalDate FROM = TODAY.minusDays(30);

  private Database database;
  private AggregateStore aggregates;
  private FollowService follows;
  private SubscriberService subscribers;
  private WarmSignals warm;
  private Broadcasts.Listening feed;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  protected abstract Database openDatabase();

  @BeforeEach
  void open() {
    database = openDatabase();
    aggregates = new AggregateStore(database.jdbi());
    follows = new FollowService(database.jdbi(), InstantSource.fixed(NOW));
    subscribers = new SubscriberService(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterEach
  void close() {
    if (feed != null) feed.close();
    if (warm != null) warm.close();
    database.close();
  }

  private void start(long maxEntries) {
    warm = new WarmSignals(aggregates, Follows.Loader.of(follows), () -> FROM, maxEntries, metrics);
    feed =
        new Broadcasts(database, new SimpleMeterRegistry()).listen(SignalsChanged.BROADCAST, warm);
  }

  private void subscriber(String id) {
    subscribers.put(new Subscriber(
        id,
        id + "@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.SUBSCRIBED));
  }

  private void history(String user) {
    aggregates.add(Map.of(
        Keys.purchases(user, "mug", new KeyPart.Month(YearMonth.of(2026, 5))), 2.0,
        Keys.purchases(user, "mug", new KeyPart.AllTime()), 3.0,
        Keys.userBrand(user, "acme", new KeyPart.AllTime()), 4.0,
        Keys.views(user, "lamp", new KeyPart.Day(TODAY.minusDays(2))), 1.0,
        // older than the days the algorithms read:
        // the database read leaves it out, and so must memory
        Keys.views(user, "vase", new KeyPart.Day(TODAY.minusDays(45))), 1.0));
  }

  /** The user's signals read from the database, as a request without memory reads them. */
  private UserSignals fromDatabase(String user) {
    List<AggregateStore.Entry> entries =
        aggregates.under(Keys.user(user), FROM, SignalReader.MAX_USER_AGGREGATES);
    return UserSignals.of(user, entries, Follows.Reader.of(follows).of(user), TODAY);
  }

  private static String describe(UserSignals signals) {
    var out = new TreeMap<String, Object>();
    signals.brands().forEach((k, v) -> out.put("brand " + k, v.allTime()));
    signals.categories().forEach((k, v) -> out.put("category " + k, v.allTime()));
    signals.purchases().forEach((k, v) -> out.put("purchase " + k, v.allTime()));
    signals.views().forEach((k, v) -> out.put("views " + k, v.decayedDays(TODAY, 30, 7)));
    out.put("follows", signals.follows());
    return out.toString();
  }

  private UserSignals read(String user) {
    WarmSignals.Lookup lookup = warm.lookup(user, TODAY, FROM);
    if (lookup instanceof WarmSignals.Lookup.Hit hit) return hit.signals();
    var miss = (WarmSignals.Lookup.Miss) lookup;
    List<AggregateStore.Entry> entries =
        aggregates.under(Keys.user(user), FROM, SignalReader.MAX_USER_AGGREGATES);
    Follows followed = Follows.Reader.of(follows).of(user);
    warm.remember(user, miss, entries, followed, FROM);
    return UserSignals.of(user, entries, followed, TODAY);
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("never: " + what);
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Test
  void memory_loaded_at_start_answers_what_the_database_holds_and_no_one_else_has_signals() {
    subscriber("ada");
    subscriber("bob");
    history("ada");
    follows.follow(new Follow("bob", new FollowTarget(TargetType.BRAND, "acme"), NOW));
    follows.follow(new Follow("bob", new FollowTarget(TargetType.CATEGORY, "home"), NOW));
    follows.follow(new Follow("bob", new FollowTarget(TargetType.ARTIST, "kahlo"), NOW));
    start(1_000);
    await("loaded in full", warm::complete);

    for (String user : List.of("ada", "bob", "carol")) {
      assertThat(warm.lookup(user, TODAY, FROM))
          .as("answered from memory: %s", user)
          .isInstanceOf(WarmSignals.Lookup.Hit.class);
      assertThat(describe(read(user))).as(user).isEqualTo(describe(fromDatabase(user)));
    }
    assertThat(describe(read("ada"))).contains("purchase mug=3.0").doesNotContain("vase");
    assertThat(read("bob").follows()).isEqualTo(new Follows(Set.of("acme"), Set.of("home")));
    assertThat(read("carol").isEmpty()).isTrue();
  }

  private double marked() {
    return metrics.counter("tidings_recommend_signals_changed_total").count();
  }

  @Test
  void a_counting_write_or_a_follow_makes_memory_read_that_user_again_whoever_wrote_it() {
    subscriber("ada");
    subscriber("dan");
    history("ada");
    start(1_000);
    await("loaded in full", warm::complete);
    assertThat(warm.lookup("ada", TODAY, FROM)).isInstanceOf(WarmSignals.Lookup.Hit.class);

    // a user with a \ and a : in their id, new since the load
    String odd = "e\\v:e";
    aggregates.add(Map.of(
        Keys.purchases("ada", "mug", new KeyPart.AllTime()), 1.0,
        Keys.purchases(odd, "lamp", new KeyPart.AllTime()), 1.0));
    await(
        "ada marked changed",
        () -> warm.lookup("ada", TODAY, FROM) instanceof WarmSignals.Lookup.Miss);
    await(
        "the new user marked changed",
        () -> warm.lookup(odd, TODAY, FROM) instanceof WarmSignals.Lookup.Miss);
    assertThat(describe(read("ada"))).contains("purchase mug=4.0");
    assertThat(warm.lookup("ada", TODAY, FROM))
        .as("kept once read again")
        .isInstanceOf(WarmSignals.Lookup.Hit.class);
    assertThat(describe(read(odd))).isEqualTo(describe(fromDatabase(odd)));

    assertThat(warm.lookup("dan", TODAY, FROM)).isInstanceOf(WarmSignals.Lookup.Hit.class);
    follows.follow(new Follow("dan", new FollowTarget(TargetType.BRAND, "acme"), NOW));
    await(
        "dan marked changed",
        () -> warm.lookup("dan", TODAY, FROM) instanceof WarmSignals.Lookup.Miss);
    assertThat(read("dan").follows().brands()).containsExactly("acme");

    follows.unfollow("dan", new FollowTarget(TargetType.BRAND, "acme"));
    await(
        "dan marked changed again",
        () -> warm.lookup("dan", TODAY, FROM) instanceof WarmSignals.Lookup.Miss);
    assertThat(read("dan").follows()).isEqualTo(Follows.NONE);
  }

  @Test
  void a_read_that_raced_a_change_is_not_kept() {
    subscriber("ada");
    history("ada");
    start(1_000);
    await("loaded in full", warm::complete);
    aggregates.add(Map.of(Keys.purchases("ada", "mug", new KeyPart.AllTime()), 1.0));
    await(
        "ada marked changed",
        () -> warm.lookup("ada", TODAY, FROM) instanceof WarmSignals.Lookup.Miss);
    var miss = (WarmSignals.Lookup.Miss) warm.lookup("ada", TODAY, FROM);
    List<AggregateStore.Entry> before =
        aggregates.under(Keys.user("ada"), FROM, SignalReader.MAX_USER_AGGREGATES);
    // the user changes again after that read and before it is remembered
    aggregates.add(Map.of(Keys.purchases("ada", "mug", new KeyPart.AllTime()), 1.0));
    await("marked again", () -> marked() >= 2);
    warm.remember("ada", miss, before, Follows.NONE, FROM);
    assertThat(warm.lookup("ada", TODAY, FROM))
        .as("the older read did not replace the newer mark")
        .isInstanceOf(WarmSignals.Lookup.Miss.class);
    assertThat(describe(read("ada"))).contains("purchase mug=5.0");
  }

  @Test
  void past_its_bound_memory_no_longer_says_none_for_a_user_it_lacks() {
    for (String user : List.of("u1", "u2", "u3")) history(user);
    start(8); // fewer entries than the three users have
    await(
        "the load gave up",
        () -> metrics
                .counter("tidings_recommend_warm_loads_total", "result", "too_many")
                .count()
            > 0);
    assertThat(warm.complete()).isFalse();
    assertThat(warm.lookup("nobody", TODAY, FROM))
        .as("without everyone in memory, an unknown user must be read")
        .isInstanceOf(WarmSignals.Lookup.Miss.class);
    assertThat(describe(read("u1"))).isEqualTo(describe(fromDatabase("u1")));
  }

  @Test
  void a_reconnected_feed_forgets_everything_and_loads_again() {
    history("ada");
    start(1_000);
    await("loaded in full", warm::complete);
    double loadsBefore = metrics
        .counter("tidings_recommend_warm_loads_total", "result", "complete")
        .count();
    warm.missed();
    // the new load runs at once and may finish before this line: it is counted, not raced
    await(
        "loaded again",
        () -> metrics
                .counter("tidings_recommend_warm_loads_total", "result", "complete")
                .count()
            == loadsBefore + 1);
    assertThat(warm.complete()).isTrue();
    assertThat(describe(read("ada"))).isEqualTo(describe(fromDatabase("ada")));
  }
}

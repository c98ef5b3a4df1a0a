package dev.tidings.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.WebUrl;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityHistory;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.recommend.Recommendations.Recommended;
import dev.tidings.storage.Database;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What {@link AffinityPopularityRecommender} does on any PostgreSQL behind the catalogue and activity. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class RecommenderContract {
  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final Instant LATER = NOW.plusSeconds(5);

  private Database database;
  private CatalogService catalog;
  private ActivityIntake intake;
  private final Map<String, Product> products = new HashMap<>();

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    catalog = new CatalogService(database.jdbi(), InstantSource.fixed(NOW));
    intake = new ActivityIntake(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE products, activity_events"));
    products.clear();
  }

  private AffinityPopularityRecommender recommender() {
    return new AffinityPopularityRecommender(
        catalog,
        new ActivityHistory(database.jdbi()),
        InstantSource.fixed(NOW),
        AffinityPopularityRecommender.Options.defaults());
  }

  private void product(String id, String brand, String category, boolean available) {
    var product = new Product(
        id,
        "Title " + id,
        Optional.of(brand),
        Optional.of(category),
        new BigDecimal("9.90"),
        Currency.getInstance("EUR"),
        WebUrl.of("https://img.example.com/" + id + ".jpg"),
        WebUrl.of("https://shop.example.com/" + id),
        available,
        Map.of());
    catalog.put(product);
    products.put(id, product);
  }

  private void events(String user, EventType type, String item, int times, int daysAgo) {
    var events = new ArrayList<ActivityEvent>();
    for (int i = 0; i < times; i++)
      events.add(new ActivityEvent(
          Optional.empty(),
          user,
          type,
          item,
          NOW.minus(Duration.ofDays(daysAgo)).minusSeconds(i),
          1,
          Optional.empty()));
    intake.record(events);
  }

  private static RecommendationRequest ask(String subscriber, int k, Set<String> exclude) {
    return new RecommendationRequest(
        subscriber, k, exclude, Optional.empty(), Locale.ENGLISH, LATER);
  }

  private String brandOf(String productId) {
    return products.get(productId).brand().orElseThrow();
  }

  /**
   * Brand A (shoes) is little sold; B (bags) and C (hats) sell well. Subscriber "s1" bought A1 and put A2 in
   * the cart, and viewed B3 once two months ago (too faint a taste to count); others viewed A4 a little, so
   * A4 is the most popular A.
   */
  private void shop() {
    for (int i = 1; i <= 6; i++) product("A" + i, "A", "shoes", true);
    for (int i = 1; i <= 4; i++) product("B" + i, "B", "bags", true);
    for (int i = 1; i <= 4; i++) product("C" + i, "C", "hats", true);
    events("others", EventType.VIEW, "B1", 20, 2);
    events("others", EventType.PURCHASE, "C1", 3, 3); // 3 purchases outweigh 20 views
    events("others", EventType.VIEW, "B2", 15, 4);
    events("others", EventType.CLICK, "C2", 5, 5);
    events("others", EventType.VIEW, "A4", 5, 1); // more than s1's own add to cart of A2
    events("s1", EventType.PURCHASE, "A1", 1, 3);
    events("s1", EventType.ADD_TO_CART, "A2", 1, 1);
    events("s1", EventType.VIEW, "B3", 1, 60);
  }

  @Test
  void brands_bought_come_first_then_best_sellers() {
    shop();
    Recommendations got = recommender().recommend(ask("s1", 4, Set.of()));

    assertThat(got.items()).hasSize(4);
    assertThat(got.items().subList(0, 2))
        .extracting(Recommended::algorithm)
        .containsOnly(AffinityPopularityRecommender.AFFINITY);
    // equal taste: the more popular A4 first, then by id; A1 was bought and is never offered
    assertThat(got.productIds().subList(0, 2)).containsExactly("A4", "A2");
    assertThat(got.items().subList(2, 4))
        .extracting(Recommended::algorithm)
        .containsOnly(AffinityPopularityRecommender.POPULAR);
    assertThat(got.productIds().subList(2, 4)).containsExactly("C1", "B1");
  }

  @Test
  void a_subscriber_without_history_gets_the_best_sellers_in_order() {
    shop();
    Recommendations got = recommender().recommend(ask("nobody", 4, Set.of()));

    assertThat(got.productIds()).containsExactly("C1", "B1", "B2", "C2");
    assertThat(got.items())
        .extracting(Recommended::algorithm)
        .containsOnly(AffinityPopularityRecommender.POPULAR);
    assertThat(got.items())
        .extracting(Recommended::score)
        .isSortedAccordingTo((a, b) -> Double.compare(b, a));
  }

  @Test
  void excluded_ids_never_appear() {
    shop();
    Set<String> exclude = Set.of("A4", "C1", "B2");
    Recommendations got = recommender().recommend(ask("s1", 8, exclude));

    assertThat(got.productIds()).hasSize(8).doesNotContainAnyElementsOf(exclude);
  }

  @Test
  void unavailable_and_bought_products_never_appear() {
    shop();
    product("A4", "A", "shoes", false);
    product("C1", "C", "hats", false);
    Recommendations got = recommender().recommend(ask("s1", 12, Set.of()));

    assertThat(got.productIds()).doesNotContain("A4", "C1", "A1");
    assertThat(got.productIds()).hasSize(11).doesNotHaveDuplicates();
  }

  @Test
  void one_brand_takes_at_most_half_the_places_while_others_exist() {
    shop();
    events("fan", EventType.PURCHASE, "A1", 1, 1);
    events("fan", EventType.PURCHASE, "A2", 1, 1);
    for (int k : new int[] {3, 5, 6}) {
      Recommendations got = recommender().recommend(ask("fan", k, Set.of()));
      Map<String, Integer> perBrand = new HashMap<>();
      got.productIds().forEach(id -> perBrand.merge(brandOf(id), 1, Integer::sum));
      assertThat(got.productIds()).hasSize(k);
      assertThat(perBrand.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo((k + 1) / 2));
      assertThat(perBrand.get("A")).isEqualTo((k + 1) / 2);
    }
  }

  @Test
  void one_brand_fills_every_place_when_nothing_else_is_left() {
    for (int i = 1; i <= 5; i++) product("A" + i, "A", "shoes", true);
    events("fan", EventType.PURCHASE, "A1", 1, 1);
    Recommendations got = recommender().recommend(ask("fan", 4, Set.of()));

    assertThat(got.productIds()).hasSize(4).doesNotContain("A1");
  }

  @Test
  void a_small_catalogue_gives_fewer_than_k() {
    product("X1", "X", "socks", true);
    product("X2", "X", "socks", true);
    product("Y1", "Y", "socks", true);
    product("Y2", "Y", "socks", false);
    Recommendations got = recommender().recommend(ask("nobody", 5, Set.of("X2")));

    assertThat(got.productIds()).containsExactlyInAnyOrder("X1", "Y1");
  }

  @Test
  void a_passed_deadline_answers_from_popularity_without_waiting() {
    shop();
    var recommender = recommender();
    recommender.refresh();
    var late = new RecommendationRequest(
        "s1", 4, Set.of(), Optional.empty(), Locale.ENGLISH, NOW.minusMillis(1));
    long started = System.nanoTime();
    Recommendations got = recommender.recommend(late);
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(got.productIds()).containsExactly("C1", "B1", "B2", "C2");
    assertThat(recommender.popularityOnlyAnswers()).isEqualTo(1);
    assertThat(took).isLessThan(Duration.ofMillis(50));
  }

  @Test
  void a_blocked_history_query_answers_from_popularity_within_the_query_time() {
    shop();
    var recommender = recommender();
    recommender.refresh();
    try (var blocker = database.jdbi().open()) {
      blocker.begin();
      blocker.execute("LOCK TABLE activity_events IN ACCESS EXCLUSIVE MODE");
      long started = System.nanoTime();
      Recommendations got = recommender.recommend(ask("s1", 4, Set.of()));
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      blocker.rollback();

      assertThat(got.productIds()).containsExactly("C1", "B1", "B2", "C2");
      assertThat(recommender.popularityOnlyAnswers()).isEqualTo(1);
      Duration bound = AffinityPopularityRecommender.Options.defaults().maxQueryTime();
      assertThat(took).isBetween(bound.minusMillis(20), bound.plusMillis(500));
    }
    // once the table is free again the subscriber's taste is back
    assertThat(recommender.recommend(ask("s1", 4, Set.of())).productIds()).startsWith("A4", "A2");
  }

  @Test
  void the_same_inputs_give_the_same_list() {
    shop();
    // many products nobody touched: their order is decided by id alone
    for (int i = 10; i < 30; i++) product("Z" + i, "Z" + (i % 4), "misc", true);
    var request = ask("s1", 12, Set.of("B1"));
    Recommendations first = recommender().recommend(request);
    Recommendations second = recommender().recommend(request);

    assertThat(second).isEqualTo(first);
    assertThat(first.productIds()).hasSize(12);
  }

  @Test
  void a_refresh_sees_new_products_and_sales() {
    shop();
    var recommender = recommender();
    assertThat(recommender.recommend(ask("nobody", 1, Set.of())).productIds())
        .containsExactly("C1");
    product("N1", "N", "new", true);
    events("others", EventType.PURCHASE, "N1", 10, 0);
    recommender.refresh();

    assertThat(recommender.recommend(ask("nobody", 1, Set.of())).productIds())
        .containsExactly("N1");
  }
}

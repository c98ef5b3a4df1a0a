package dev.tidings.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.activity.aggregate.AggregationRunner;
import dev.tidings.activity.aggregate.BacklogAggregation;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An event is reflected in that user's recommendations within a second, as a node runs: stored by the
 * intake, counted into the aggregates by the node's background rounds, read by the blender on the next
 * call. Each of several users views a product; the test times how long after the intake answered the
 * product (recently viewed) shows in the user's recommendations.
 */
class RecommendationFreshnessIT {
  @Test
  void a_view_shows_in_the_viewers_recommendations_within_a_second() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 6);
    try (Database database = TestDatabases.real()) {
      var jdbi = database.jdbi();
      jdbi.useHandle(handle -> handle.execute("""
          INSERT INTO products (id, title, brand, category, price, currency, image_url, landing_url,
                                created_at, updated_at)
          SELECT 'f-' || i, 'Product ' || i, 'brand-' || (i % 5), 'category-' || (i % 3), 10, 'EUR',
                 'https://shop.test/i.png', 'https://shop.test/p', now(), now()
            FROM generate_series(1, 60) AS i"""));
      var clock = InstantSource.system();
      var store = new AggregateStore(jdbi);
      var intake = new ActivityIntake(jdbi, clock);
      var aggregation = new BacklogAggregation(
          jdbi,
          new AggregationDefinitions(jdbi, AggregationDefinitions.DEFAULT_REFRESH),
          store,
          new SimpleMeterRegistry());
      var latencies = new ArrayList<Long>();
      try (var runner = AggregationRunner.start(aggregation, AggregationRunner.Options.defaults());
          var recommender = LiveRecommender.of(
              jdbi, clock, LiveRecommender.Options.defaults(), new SimpleMeterRegistry())) {
        for (int i = 1; i <= 8; i++) {
          String user = "fresh-" + run + "-" + i;
          String product = "f-" + (i * 7);
          assertThat(recommend(recommender, user)).doesNotContain(product + " recently_viewed");
          intake.record(new ActivityEvent(
              Optional.empty(), user, EventType.VIEW, product, Instant.now(), 1, Optional.empty()));
          long stored = System.nanoTime();
          while (!recommend(recommender, user).contains(product + " recently_viewed")) {
            assertThat(Duration.ofNanos(System.nanoTime() - stored))
                .as("the view of %s by %s is not in the recommendations yet", product, user)
                .isLessThan(Duration.ofSeconds(5));
            Thread.sleep(5);
          }
          latencies.add((System.nanoTime() - stored) / 1_000_000);
        }
      }
      System.out.println("freshness (ms) of 8 views: " + latencies);
      assertThat(latencies).allSatisfy(ms -> assertThat(ms).isLessThan(1_000L));
    }
  }

  /** Each recommended product with each of its reasons, as "product reason". */
  private static Set<String> recommend(Recommender recommender, String user) {
    var answer = recommender.recommend(new RecommendationRequest(
        user, 10, Set.of(), Optional.empty(), Locale.ENGLISH, Instant.now().plusMillis(250)));
    var seen = new HashSet<String>();
    for (var item : answer.items())
      for (String reason : item.reasons()) seen.add(item.productId() + " " + reason);
    return seen;
  }
}

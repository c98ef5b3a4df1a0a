package dev.tidings.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.activity.aggregate.BacklogAggregation;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What everyone is shown as popular or trending counts people, not events: one person repeating
 * themselves cannot lift a product above one that several people each looked at once.
 */
@Timeout(120)
@StartsServers
class PopularityCountsPeopleTest {
  @Test
  void one_person_viewing_an_item_fifty_times_ranks_below_an_item_three_people_viewed_once() {
    try (Database database = TestDatabases.embedded()) {
      var jdbi = database.jdbi();
      jdbi.useHandle(handle -> handle.execute("""
          INSERT INTO products (id, title, brand, category, price, currency, image_url, landing_url,
                                created_at, updated_at)
          SELECT id, 'Product ' || id, 'brand-' || id, 'category', 10, 'EUR',
                 'https://shop.test/i.png', 'https://shop.test/p', now() - interval '400 days',
                 now() - interval '400 days'
            FROM unnest(ARRAY['hammered', 'liked', 'filler']) AS id"""));
      Instant now = Instant.now();
      var intake = new ActivityIntake(jdbi, InstantSource.fixed(now));
      var events = new ArrayList<ActivityEvent>();
      for (int i = 0; i < 50; i++)
        events.add(event(
            "hammer",
            i % 2 == 0 ? EventType.VIEW : EventType.CLICK,
            "hammered",
            now.minusSeconds(60 + i)));
      for (int i = 1; i <= 3; i++) events.add(event("other-" + i, EventType.VIEW, "liked", now));
      intake.record(events);
      var aggregation = new BacklogAggregation(
          jdbi,
          new AggregationDefinitions(jdbi, Duration.ZERO),
          new AggregateStore(jdbi),
          new SimpleMeterRegistry());
      while (aggregation.countOnce(1_000) > 0) {}

      try (var recommender = LiveRecommender.of(
          jdbi,
          InstantSource.system(),
          LiveRecommender.Options.defaults(),
          new SimpleMeterRegistry())) {
        var answer = recommender.recommend(new RecommendationRequest(
            "newcomer", 3, Set.of(), Optional.empty(), Locale.ENGLISH, now.plusSeconds(5)));
        List<String> order =
            answer.items().stream().map(Recommendations.Recommended::productId).toList();
        assertThat(order).contains("liked", "hammered");
        assertThat(order.indexOf("liked"))
            .as(
                "the product three people viewed comes before the one one person hammered: %s",
                order)
            .isLessThan(order.indexOf("hammered"));
      }
    }
  }

  private static ActivityEvent event(String user, EventType type, String item, Instant at) {
    return new ActivityEvent(Optional.empty(), user, type, item, at, 1, Optional.empty());
  }
}

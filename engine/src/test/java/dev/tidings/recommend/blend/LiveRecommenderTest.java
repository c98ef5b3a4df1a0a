package dev.tidings.recommend.blend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.recommend.RecommendationRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LiveRecommenderTest {
  /** Settings kept in memory, as the table keeps them. */
  private static final class InMemorySettings implements SettingsStore {
    final AtomicReference<RecommenderSettings> stored =
        new AtomicReference<>(RecommenderSettings.defaults());

    @Override
    public RecommenderSettings load() {
      return stored.get();
    }

    @Override
    public void save(Algorithm algorithm, AlgorithmSettings settings) {
      stored.set(stored.get().with(algorithm, settings));
    }

    @Override
    public void save(BlendSettings settings) {
      stored.set(stored.get().with(settings));
    }
  }

  /** Background rebuilds far apart: whatever happens here happens on the request or the change. */
  private static final LiveRecommender.Options RARELY = new LiveRecommender.Options(
      Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1));

  private static RecommendationRequest ask(int k) {
    return new RecommendationRequest(
        "u", k, Set.of(), Optional.empty(), Locale.ROOT, Instant.now().plusSeconds(1));
  }

  @Test
  void a_node_started_before_its_catalogue_answers_as_soon_as_there_are_products() {
    var products = new CopyOnWriteArrayList<ProductFacts>();
    try (var live = new LiveRecommender(
        new InMemorySettings(),
        () -> List.copyOf(products),
        new InMemoryAggregates(),
        user -> Follows.NONE,
        InstantSource.system(),
        RARELY,
        new SimpleMeterRegistry())) {
      assertThat(live.recommend(ask(3)).items()).isEmpty();
      for (int i = 0; i < 3; i++)
        products.add(new ProductFacts("p" + i, "b" + i, "c" + i, true, Instant.now()));
      assertThat(live.recommend(ask(3)).productIds()).containsExactlyInAnyOrder("p0", "p1", "p2");
    }
  }

  @Test
  void a_change_is_stored_and_applies_at_once_on_the_node_that_takes_it() {
    var store = new InMemorySettings();
    var aggregates = new InMemoryAggregates()
        .add(Keys.purchases("u", "p1", Shop.all()), 2)
        .add(Keys.purchases("u", "p1", new KeyPart.Month(YearMonth.now(ZoneOffset.UTC))), 2);
    try (var live = new LiveRecommender(
        store,
        () -> List.of(
            new ProductFacts("p0", "b", "c", true, Instant.now()),
            new ProductFacts("p1", "b", "c", true, Instant.now())),
        aggregates,
        user -> Follows.NONE,
        InstantSource.system(),
        RARELY,
        new SimpleMeterRegistry())) {
      assertThat(live.recommend(ask(1)).items().getFirst().reasons()).containsExactly("buy_again");
      live.change(Algorithm.BUY_AGAIN, new AlgorithmSettings(false, 1, Map.of()));
      assertThat(store.load().of(Algorithm.BUY_AGAIN).enabled()).isFalse();
      assertThat(live.recommend(ask(1)).items().getFirst().reasons()).containsExactly("popularity");
      live.change(new BlendSettings(true, 3, 4));
      assertThat(live.recommend(ask(2)).productIds()).containsExactly("p0");
    }
  }
}

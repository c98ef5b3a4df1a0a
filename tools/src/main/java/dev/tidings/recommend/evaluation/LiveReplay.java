package dev.tidings.recommend.evaluation;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.EventType;
import dev.tidings.activity.aggregate.ItemFacts;
import dev.tidings.activity.aggregate.MemoryCounting;
import dev.tidings.activity.aggregate.StandardAggregations;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.recommend.blend.AlgorithmSettings;
import dev.tidings.recommend.blend.BlendSettings;
import dev.tidings.recommend.blend.Follows;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.recommend.blend.ProductFacts;
import dev.tidings.recommend.blend.RecommenderSettings;
import dev.tidings.recommend.blend.SettingsStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The live recommender of a node (its plugins, blender, settings and filters: the same classes) over a
 * history replayed into memory: each interaction becomes the purchase event a shop would send (its
 * basket as the session), counted by the standard aggregations' rules, and the recommender answers as
 * of one second after the last of them. What it ranks is what the API would answer after importing the
 * same history.
 */
final class LiveReplay implements AutoCloseable {
  private static final Duration NEVER = Duration.ofDays(36_500);

  private final Interactions rows;
  private final Map<String, Integer> itemIndex;
  private final Instant now;
  private final MemorySettings settings;
  private final LiveRecommender recommender;

  private LiveReplay(Interactions rows, RecommenderSettings start) {
    this.rows = rows;
    this.itemIndex = HashMap.newHashMap(rows.itemCount());
    for (int item = 0; item < rows.itemCount(); item++) itemIndex.put(rows.itemId(item), item);
    this.now = Instant.ofEpochSecond(rows.lastEpochSecond() + 1);
    var counting = new MemoryCounting(StandardAggregations.all(), item -> ItemFacts.UNKNOWN);
    // a day at a time, forgetting the people of the days before: what a node's counting keeps
    List<ActivityEvent> events = events(rows);
    int from = 0;
    while (from < events.size()) {
      LocalDate day = day(events.get(from));
      int to = from;
      while (to < events.size() && day(events.get(to)).equals(day)) to++;
      counting.count(events.subList(from, to));
      counting.forgetPeopleBefore(day);
      from = to;
    }
    this.settings = new MemorySettings(start);
    this.recommender = new LiveRecommender(
        settings,
        () -> catalogue(rows),
        new MemoryAggregates(counting.totals()),
        user -> Follows.NONE,
        InstantSource.fixed(now),
        new LiveRecommender.Options(NEVER, NEVER, NEVER, NEVER),
        new SimpleMeterRegistry());
    recommender.refreshModels();
  }

  /** Counts {@code rows} and builds the models, with {@code settings} as the stored settings. */
  static LiveReplay of(Interactions rows, RecommenderSettings settings) {
    return new LiveReplay(rows, settings);
  }

  /** Replaces the settings and rebuilds what depends on them. */
  void use(RecommenderSettings changed) {
    settings.current = changed;
    recommender.refreshSettingsAndModels();
  }

  RecommenderSettings settings() {
    return settings.current;
  }

  /** The top {@code k} for {@code user} as item indexes, best first, as the API would answer now. */
  int[] rank(int user, int k) {
    return answer(user, k).items().stream()
        .map(item -> itemIndex.get(item.productId()))
        .filter(Objects::nonNull)
        .mapToInt(Integer::intValue)
        .toArray();
  }

  /** The answer itself, with each product's reasons and shares. */
  Recommendations answer(int user, int k) {
    return recommender.recommend(new RecommendationRequest(
        rows.userId(user),
        k,
        Set.of(),
        Optional.empty(),
        Locale.ROOT,
        now.plus(Duration.ofHours(1))));
  }

  private static LocalDate day(ActivityEvent event) {
    return LocalDate.ofInstant(event.timestamp(), ZoneOffset.UTC);
  }

  /** One purchase event per row, in time order (rows of one time in file order). */
  private static List<ActivityEvent> events(Interactions rows) {
    Integer[] order = new Integer[rows.size()];
    for (int row = 0; row < order.length; row++) order[row] = row;
    Arrays.sort(order, Comparator.comparingLong(rows::epochSecond));
    var events = new ArrayList<ActivityEvent>(order.length);
    for (int row : order) {
      events.add(new ActivityEvent(
          Optional.empty(),
          rows.userId(rows.user(row)),
          EventType.PURCHASE,
          rows.itemId(rows.item(row)),
          Instant.ofEpochSecond(rows.epochSecond(row)),
          rows.quantity(row),
          Optional.empty(),
          Optional.of("basket-" + rows.basket(row)),
          Map.of()));
    }
    return events;
  }

  /** Every item with a row, available, created when it was first bought. */
  private static List<ProductFacts> catalogue(Interactions rows) {
    var first = new HashMap<Integer, Long>();
    for (int row = 0; row < rows.size(); row++)
      first.merge(rows.item(row), rows.epochSecond(row), Math::min);
    var products = new ArrayList<ProductFacts>(first.size());
    first.forEach((item, at) -> products.add(
        new ProductFacts(rows.itemId(item), null, null, true, Instant.ofEpochSecond(at))));
    return products;
  }

  @Override
  public void close() {
    recommender.close();
  }

  /** Settings held here: what a node would read from its table. */
  private static final class MemorySettings implements SettingsStore {
    private volatile RecommenderSettings current;

    MemorySettings(RecommenderSettings current) {
      this.current = current;
    }

    @Override
    public RecommenderSettings load() {
      return current;
    }

    @Override
    public void save(Algorithm algorithm, AlgorithmSettings changed) {
      current = current.with(algorithm, changed);
    }

    @Override
    public void save(BlendSettings changed) {
      current = current.with(changed);
    }
  }
}

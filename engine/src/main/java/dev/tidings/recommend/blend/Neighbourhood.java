package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The all-time item aggregates: each item's event count and its co-occurrence neighbours (co-view and
 * co-purchase sessions), the strongest {@link #MAX_NEIGHBOURS} kept. Read in one pass over the
 * all-time periods of {@code s@item:}, the largest read the recommender makes, so it is rebuilt less
 * often than trending. Immutable.
 */
final class Neighbourhood {
  /** Neighbours kept per item, the strongest: more would only be read past on every request. */
  static final int MAX_NEIGHBOURS = 100;

  /** Aggregates read per rebuild at most: the model stays bounded on a catalogue larger than planned. */
  static final int MAX_AGGREGATES = 5_000_000;

  static final Neighbourhood NONE = new Neighbourhood(Instant.EPOCH, Map.of(), Map.of());

  /** One co-occurring item with its session counts. */
  record Neighbour(String item, double coViews, double coPurchases) {}

  private final Instant builtAt;
  private final Map<String, Double> allTime;
  private final Map<String, List<Neighbour>> neighbours;

  private Neighbourhood(
      Instant builtAt, Map<String, Double> allTime, Map<String, List<Neighbour>> neighbours) {
    this.builtAt = builtAt;
    this.allTime = allTime;
    this.neighbours = neighbours;
  }

  static Neighbourhood load(AggregateReader aggregates, Instant now) {
    return of(now, aggregates.read("s@" + Keys.ITEM + ":", "all", "all", MAX_AGGREGATES));
  }

  static Neighbourhood of(Instant now, List<AggregateStore.Entry> entries) {
    var allTime = new HashMap<String, Double>();
    var coViews = new HashMap<String, Map<String, Double>>();
    var coPurchases = new HashMap<String, Map<String, Double>>();
    for (AggregateStore.Entry entry : entries) {
      AggregateKey key = entry.key();
      if (!(key.bucket().orElse(null) instanceof KeyPart.AllTime)
          || !Keys.ITEM.equals(Keys.text(key, 0))) continue;
      String item = Keys.text(key, 1);
      if (key.parts().size() == 5 && Keys.ITEM_POPULARITY.equals(Keys.text(key, 2))) {
        allTime.put(item, entry.value());
      } else if (key.parts().size() == 7 && Keys.CO_ITEM.equals(Keys.text(key, 2))) {
        String other = Keys.text(key, 3);
        String kind = Keys.text(key, 4);
        if (Keys.CO_VIEW.equals(kind))
          coViews.computeIfAbsent(item, i -> new HashMap<>()).put(other, entry.value());
        else if (Keys.CO_PURCHASE.equals(kind))
          coPurchases.computeIfAbsent(item, i -> new HashMap<>()).put(other, entry.value());
      }
    }
    var neighbours = new HashMap<String, List<Neighbour>>();
    var items = new HashSet<>(coViews.keySet());
    items.addAll(coPurchases.keySet());
    for (String item : items) {
      Map<String, Double> views = coViews.getOrDefault(item, Map.of());
      Map<String, Double> purchases = coPurchases.getOrDefault(item, Map.of());
      var others = new HashSet<>(views.keySet());
      others.addAll(purchases.keySet());
      neighbours.put(
          item,
          others.stream()
              .map(other -> new Neighbour(
                  other, views.getOrDefault(other, 0.0), purchases.getOrDefault(other, 0.0)))
              .sorted(Comparator.comparingDouble((Neighbour n) -> n.coViews() + n.coPurchases())
                  .reversed()
                  .thenComparing(Neighbour::item))
              .limit(MAX_NEIGHBOURS)
              .toList());
    }
    return new Neighbourhood(now, allTime, neighbours);
  }

  Instant builtAt() {
    return builtAt;
  }

  /** All-time event count, null when there is none. */
  @Nullable Double allTime(String item) {
    return allTime.get(item);
  }

  Map<String, Double> allTimeCounts() {
    return allTime;
  }

  List<Neighbour> neighbours(String item) {
    return neighbours.getOrDefault(item, List.of());
  }

  Map<String, List<Neighbour>> all() {
    return neighbours;
  }
}

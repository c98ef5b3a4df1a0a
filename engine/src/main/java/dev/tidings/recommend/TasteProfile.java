package dev.tidings.recommend;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.activity.EventType;
import dev.tidings.catalog.ProductTraits;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one subscriber's recent events say they like: an affinity per brand and per category (the sum of
 * their events' weights, each halved for every half-life of age, so last week counts more than last
 * quarter) and the products they bought, which are never offered again. A brand or category with less
 * than a tenth of the favourite's affinity is dropped: a stray view long ago should not push its brand
 * ahead of the best sellers.
 */
record TasteProfile(
    Map<String, Double> brands, Map<String, Double> categories, Set<String> bought) {
  private static final double MIN_SHARE_OF_FAVOURITE = 0.1;

  static final TasteProfile NONE = new TasteProfile(Map.of(), Map.of(), Set.of());

  static TasteProfile of(
      List<ActivityHistory.PastEvent> events,
      CatalogSnapshot catalog,
      Instant now,
      Duration halfLife) {
    var brands = new HashMap<String, Double>();
    var categories = new HashMap<String, Double>();
    var bought = new HashSet<String>();
    double halfLifeSeconds = Math.max(1, halfLife.toSeconds());
    for (ActivityHistory.PastEvent event : events) {
      if (event.type() == EventType.PURCHASE) bought.add(event.itemId());
      ProductTraits product = catalog.traits(event.itemId());
      if (product == null) continue;
      double ageSeconds = Math.max(0, Duration.between(event.occurredAt(), now).toSeconds());
      double weight = EventWeights.of(event.type()) * Math.pow(0.5, ageSeconds / halfLifeSeconds);
      if (weight <= 0) continue;
      product.brand().ifPresent(b -> brands.merge(b, weight, Double::sum));
      product.category().ifPresent(c -> categories.merge(c, weight, Double::sum));
    }
    return new TasteProfile(strong(brands), strong(categories), Set.copyOf(bought));
  }

  private static Map<String, Double> strong(Map<String, Double> affinities) {
    double favourite =
        affinities.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    var strong = new HashMap<String, Double>();
    affinities.forEach((key, affinity) -> {
      if (affinity >= MIN_SHARE_OF_FAVOURITE * favourite) strong.put(key, affinity);
    });
    return Map.copyOf(strong);
  }

  boolean isEmpty() {
    return brands.isEmpty() && categories.isEmpty();
  }

  /** The {@code n} keys with the highest affinity, ties by key so the choice is repeatable. */
  static List<String> top(Map<String, Double> affinities, int n) {
    return affinities.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(n)
        .map(Map.Entry::getKey)
        .toList();
  }
}

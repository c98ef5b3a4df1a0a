package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Everything about items the request path needs, built in the background from the catalogue and the
 * item aggregates: each product's facts, its trending score (day counts of {@code item_popularity},
 * each halved per half-life of age), its all-time popularity, the available products by trending score
 * overall, per brand and per category, the newest per brand and per category, and each item's
 * co-occurrence neighbours (all-time co-view and co-purchase counts). Immutable; replaced whole.
 */
public final class ItemModel {
  /** Neighbours kept per item, the strongest: more would only be read past on every request. */
  static final int MAX_NEIGHBOURS = 100;

  /** Aggregates read per refresh at most: the model stays bounded on a catalogue larger than planned. */
  static final int MAX_ITEM_AGGREGATES = 5_000_000;

  /** One co-occurring item with its session counts. */
  record Neighbour(String item, double coViews, double coPurchases) {}

  private final Instant builtAt;
  private final Map<String, ProductFacts> products;
  private final Map<String, Double> trending;
  private final Map<String, Double> allTime;
  private final List<String> popular;
  private final Map<String, List<String>> byBrand;
  private final Map<String, List<String>> byCategory;
  private final Map<String, List<String>> newestByBrand;
  private final Map<String, List<String>> newestByCategory;
  private final Map<String, List<Neighbour>> neighbours;

  private ItemModel(
      Instant builtAt,
      Map<String, ProductFacts> products,
      Map<String, Double> trending,
      Map<String, Double> allTime,
      Map<String, List<Neighbour>> neighbours) {
    this.builtAt = builtAt;
    this.products = products;
    this.trending = trending;
    this.allTime = allTime;
    this.neighbours = neighbours;
    Comparator<ProductFacts> byTrending = Comparator.comparingDouble(
            (ProductFacts p) -> trending.getOrDefault(p.id(), 0.0))
        .reversed()
        .thenComparing(p -> -allTime.getOrDefault(p.id(), 0.0))
        .thenComparing(ProductFacts::id);
    Comparator<ProductFacts> newestFirst =
        Comparator.comparing(ProductFacts::createdAt).reversed().thenComparing(ProductFacts::id);
    List<ProductFacts> available =
        products.values().stream().filter(ProductFacts::available).toList();
    this.popular = available.stream().sorted(byTrending).map(ProductFacts::id).toList();
    this.byBrand = group(available, ProductFacts::brand, byTrending);
    this.byCategory = group(available, ProductFacts::category, byTrending);
    this.newestByBrand = group(available, ProductFacts::brand, newestFirst);
    this.newestByCategory = group(available, ProductFacts::category, newestFirst);
  }

  private interface Group {
    @Nullable String of(ProductFacts product);
  }

  private static Map<String, List<String>> group(
      List<ProductFacts> products, Group key, Comparator<ProductFacts> order) {
    var groups = new HashMap<String, List<ProductFacts>>();
    for (ProductFacts product : products) {
      String group = key.of(product);
      if (group != null) groups.computeIfAbsent(group, g -> new ArrayList<>()).add(product);
    }
    var sorted = HashMap.<String, List<String>>newHashMap(groups.size());
    groups.forEach((group, members) ->
        sorted.put(group, members.stream().sorted(order).map(ProductFacts::id).toList()));
    return sorted;
  }

  /**
   * Reads the catalogue and the item aggregates of the last {@code windowDays} days and all time.
   * One read from the window's first day to {@code all}: day periods of the window, months from it on
   * (ignored) and all-time totals.
   */
  static ItemModel load(
      CatalogFacts catalog,
      AggregateReader aggregates,
      Instant now,
      LocalDate today,
      double halfLifeDays,
      int windowDays) {
    String from = today.minusDays(windowDays - 1L).toString();
    List<AggregateStore.Entry> entries =
        aggregates.read("s@" + Keys.ITEM + ":", from, "all", MAX_ITEM_AGGREGATES);
    return of(now, today, catalog.all(), entries, halfLifeDays, windowDays);
  }

  static ItemModel of(
      Instant now,
      LocalDate today,
      Collection<ProductFacts> catalog,
      List<AggregateStore.Entry> entries,
      double halfLifeDays,
      int windowDays) {
    var products = HashMap.<String, ProductFacts>newHashMap(catalog.size());
    for (ProductFacts product : catalog) products.put(product.id(), product);
    var trending = new HashMap<String, Double>();
    var allTime = new HashMap<String, Double>();
    var coViews = new HashMap<String, Map<String, Double>>();
    var coPurchases = new HashMap<String, Map<String, Double>>();
    for (AggregateStore.Entry entry : entries) {
      AggregateKey key = entry.key();
      KeyPart.Bucket bucket = key.bucket().orElse(null);
      if (bucket == null || !Keys.ITEM.equals(Keys.text(key, 0))) continue;
      String item = Keys.text(key, 1);
      if (key.parts().size() == 5 && Keys.ITEM_POPULARITY.equals(Keys.text(key, 2))) {
        if (bucket instanceof KeyPart.Day day) {
          long age = ChronoUnit.DAYS.between(day.day(), today);
          if (age >= 0 && age < windowDays)
            trending.merge(item, entry.value() * Math.pow(0.5, age / halfLifeDays), Double::sum);
        } else if (bucket instanceof KeyPart.AllTime) {
          allTime.put(item, entry.value());
        }
      } else if (key.parts().size() == 7
          && Keys.CO_ITEM.equals(Keys.text(key, 2))
          && bucket instanceof KeyPart.AllTime) {
        String other = Keys.text(key, 3);
        String kind = Keys.text(key, 4);
        if (Keys.CO_VIEW.equals(kind))
          coViews.computeIfAbsent(item, i -> new HashMap<>()).put(other, entry.value());
        else if (Keys.CO_PURCHASE.equals(kind))
          coPurchases.computeIfAbsent(item, i -> new HashMap<>()).put(other, entry.value());
      }
    }
    var neighbours = new HashMap<String, List<Neighbour>>();
    var items = new java.util.HashSet<>(coViews.keySet());
    items.addAll(coPurchases.keySet());
    for (String item : items) {
      Map<String, Double> views = coViews.getOrDefault(item, Map.of());
      Map<String, Double> purchases = coPurchases.getOrDefault(item, Map.of());
      var others = new java.util.HashSet<>(views.keySet());
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
    return new ItemModel(now, Map.copyOf(products), trending, allTime, neighbours);
  }

  Instant builtAt() {
    return builtAt;
  }

  @Nullable ProductFacts product(String id) {
    return products.get(id);
  }

  int size() {
    return products.size();
  }

  double trending(String id) {
    return trending.getOrDefault(id, 0.0);
  }

  /** All-time event count; the trending score when the all-time count is missing. */
  double allTime(String id) {
    Double count = allTime.get(id);
    return count != null ? count : trending(id);
  }

  /** Available products, trending first. */
  List<String> popular() {
    return popular;
  }

  List<String> ofBrand(String brand) {
    return byBrand.getOrDefault(brand, List.of());
  }

  List<String> ofCategory(String category) {
    return byCategory.getOrDefault(category, List.of());
  }

  List<String> newestOfBrand(String brand) {
    return newestByBrand.getOrDefault(brand, List.of());
  }

  List<String> newestOfCategory(String category) {
    return newestByCategory.getOrDefault(category, List.of());
  }

  List<Neighbour> neighbours(String item) {
    return neighbours.getOrDefault(item, List.of());
  }

  /** Items with neighbours, for the model-based algorithm's Gram matrix. */
  Map<String, List<Neighbour>> allNeighbours() {
    return neighbours;
  }
}

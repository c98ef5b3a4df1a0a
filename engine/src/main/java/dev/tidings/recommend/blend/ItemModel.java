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
 * Everything about items the request path needs, built in the background: each product's facts, its
 * trending score (day counts of people of {@code item_popularity}, plus its buyers of {@code
 * item_buyers} times the purchase weight, each halved per half-life of age), the
 * available products by trending score overall, per brand and per category, the newest per brand and
 * per category, and the all-time counts and co-occurrence neighbours of the last {@link
 * Neighbourhood}. Immutable; replaced whole.
 */
public final class ItemModel {
  private final Instant builtAt;
  private final Map<String, ProductFacts> products;
  private final Map<String, Double> trending;
  private final Neighbourhood neighbourhood;
  private final List<String> popular;
  private final Map<String, List<String>> byBrand;
  private final Map<String, List<String>> byCategory;
  private final Map<String, List<String>> newestByBrand;
  private final Map<String, List<String>> newestByCategory;

  private ItemModel(
      Instant builtAt,
      Map<String, ProductFacts> products,
      Map<String, Double> trending,
      Neighbourhood neighbourhood) {
    this.builtAt = builtAt;
    this.products = products;
    this.trending = trending;
    this.neighbourhood = neighbourhood;
    Comparator<ProductFacts> byTrending = Comparator.comparingDouble(
            (ProductFacts p) -> trending.getOrDefault(p.id(), 0.0))
        .reversed()
        .thenComparing(p -> -allTime(p.id()))
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
   * Reads the catalogue and the day counts of the last {@code windowDays} days. One read per calendar
   * month of the window, from its first to its last day in the window: a month's own period ({@code
   * 2026-11}) sorts before its first day ({@code 2026-11-01}) and {@code all} after every day, so
   * only day periods come back, however many all-time co-occurrences there are.
   */
  static ItemModel load(
      CatalogFacts catalog,
      AggregateReader aggregates,
      Neighbourhood neighbourhood,
      Instant now,
      LocalDate today,
      double halfLifeDays,
      int windowDays,
      double purchaseWeight) {
    var entries = new ArrayList<AggregateStore.Entry>();
    LocalDate first = today.minusDays(windowDays - 1L);
    for (LocalDate from = first;
        !from.isAfter(today);
        from = from.withDayOfMonth(1).plusMonths(1)) {
      LocalDate monthEnd = from.withDayOfMonth(from.lengthOfMonth());
      LocalDate to = monthEnd.isAfter(today) ? today : monthEnd;
      entries.addAll(aggregates.read(
          "s@" + Keys.ITEM + ":", from.toString(), to.toString(), Neighbourhood.MAX_AGGREGATES));
    }
    return of(
        now,
        today,
        catalog.all(),
        entries,
        neighbourhood,
        halfLifeDays,
        windowDays,
        purchaseWeight);
  }

  static ItemModel of(
      Instant now,
      LocalDate today,
      Collection<ProductFacts> catalog,
      List<AggregateStore.Entry> dayEntries,
      Neighbourhood neighbourhood,
      double halfLifeDays,
      int windowDays,
      double purchaseWeight) {
    var products = HashMap.<String, ProductFacts>newHashMap(catalog.size());
    for (ProductFacts product : catalog) products.put(product.id(), product);
    var trending = new HashMap<String, Double>();
    for (AggregateStore.Entry entry : dayEntries) {
      AggregateKey key = entry.key();
      if (key.parts().size() != 5
          || !Keys.ITEM.equals(Keys.text(key, 0))
          || !(key.bucket().orElse(null) instanceof KeyPart.Day day)) continue;
      // people who touched the item that day, and those of them who bought it counted again
      double weight = switch (Keys.text(key, 2)) {
        case Keys.ITEM_POPULARITY -> 1;
        case Keys.ITEM_BUYERS -> purchaseWeight;
        default -> 0;
      };
      long age = ChronoUnit.DAYS.between(day.day(), today);
      if (weight > 0 && age >= 0 && age < windowDays)
        trending.merge(
            Keys.text(key, 1),
            weight * entry.value() * Math.pow(0.5, age / halfLifeDays),
            Double::sum);
    }
    return new ItemModel(now, Map.copyOf(products), trending, neighbourhood);
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

  /** All-time popularity (person-days); the trending score when it is missing. */
  double allTime(String id) {
    Double count = neighbourhood.allTime(id);
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

  List<Neighbourhood.Neighbour> neighbours(String item) {
    return neighbourhood.neighbours(item);
  }

  /** Items with neighbours, for the model-based algorithm's Gram matrix. */
  Map<String, List<Neighbourhood.Neighbour>> allNeighbours() {
    return neighbourhood.all();
  }
}

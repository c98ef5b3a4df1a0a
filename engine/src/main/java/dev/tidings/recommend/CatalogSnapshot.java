package dev.tidings.recommend;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.catalog.ProductTraits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The catalogue and its recent popularity as of one moment, indexed for the request path: every product's
 * traits (sold-out ones too, since what a subscriber bought still says what they like), and the available
 * products best-selling first, overall, per brand and per category. Immutable; replaced whole on refresh.
 */
final class CatalogSnapshot {
  /** Available products by popularity, then id, so equal popularity always orders the same way. */
  static final Comparator<Ranked> BY_POPULARITY =
      Comparator.comparingDouble(Ranked::popularity).reversed().thenComparing(Ranked::id);

  /** An available product with its brand (null when it has none) and weighted recent event count. */
  record Ranked(String id, @Nullable String brand, @Nullable String category, double popularity) {}

  private final Instant takenAt;
  private final Map<String, ProductTraits> traits;
  private final List<Ranked> popular;
  private final Map<String, List<Ranked>> byBrand;
  private final Map<String, List<Ranked>> byCategory;

  private CatalogSnapshot(
      Instant takenAt,
      Map<String, ProductTraits> traits,
      List<Ranked> popular,
      Map<String, List<Ranked>> byBrand,
      Map<String, List<Ranked>> byCategory) {
    this.takenAt = takenAt;
    this.traits = traits;
    this.popular = popular;
    this.byBrand = byBrand;
    this.byCategory = byCategory;
  }

  static CatalogSnapshot of(
      Instant takenAt,
      Collection<ProductTraits> products,
      Collection<ActivityHistory.ItemCount> counts) {
    var popularity = new HashMap<String, Double>();
    for (ActivityHistory.ItemCount count : counts)
      popularity.merge(count.itemId(), EventWeights.of(count.type()) * count.events(), Double::sum);
    var traits = HashMap.<String, ProductTraits>newHashMap(products.size());
    var popular = new ArrayList<Ranked>();
    var byBrand = new HashMap<String, List<Ranked>>();
    var byCategory = new HashMap<String, List<Ranked>>();
    for (ProductTraits product : products) {
      traits.put(product.id(), product);
      if (!product.available()) continue;
      var ranked = new Ranked(
          product.id(),
          product.brand().orElse(null),
          product.category().orElse(null),
          popularity.getOrDefault(product.id(), 0.0));
      popular.add(ranked);
      product
          .brand()
          .ifPresent(b -> byBrand.computeIfAbsent(b, x -> new ArrayList<>()).add(ranked));
      product
          .category()
          .ifPresent(c -> byCategory.computeIfAbsent(c, x -> new ArrayList<>()).add(ranked));
    }
    popular.sort(BY_POPULARITY);
    byBrand.values().forEach(list -> list.sort(BY_POPULARITY));
    byCategory.values().forEach(list -> list.sort(BY_POPULARITY));
    return new CatalogSnapshot(
        takenAt, Map.copyOf(traits), List.copyOf(popular), freeze(byBrand), freeze(byCategory));
  }

  private static Map<String, List<Ranked>> freeze(Map<String, List<Ranked>> lists) {
    var frozen = HashMap.<String, List<Ranked>>newHashMap(lists.size());
    lists.forEach((key, list) -> frozen.put(key, List.copyOf(list)));
    return Map.copyOf(frozen);
  }

  Instant takenAt() {
    return takenAt;
  }

  /** Any product's traits, available or not; null when the catalogue does not know the id. */
  @Nullable ProductTraits traits(String productId) {
    return traits.get(productId);
  }

  List<Ranked> popular() {
    return popular;
  }

  List<Ranked> ofBrand(String brand) {
    return byBrand.getOrDefault(brand, List.of());
  }

  List<Ranked> ofCategory(String category) {
    return byCategory.getOrDefault(category, List.of());
  }
}

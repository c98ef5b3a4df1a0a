package dev.tidings.recommend.blend;

import java.time.YearMonth;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Brand and category affinity: the user's events per brand and per category (months decayed by a
 * half-life), each scaled to 1 for their favourite; the trending products of their top brands and
 * categories, scored by the affinity of their brand plus their category, trending breaking ties.
 */
final class Affinity implements CandidateSource.WholeCatalogue {
  /**
   * Products looked at per brand or category of the user's taste, at least: within one brand the
   * order is mostly trending's, so the best n of the blend are among each taste's first few dozen.
   */
  private static final int PRODUCTS_PER_TASTE = 30;

  private static final double TRENDING_TIE_BREAK = 0.01;

  @Override
  public Algorithm algorithm() {
    return Algorithm.AFFINITY;
  }

  /** The user's brands and categories, each scaled to 1 for the favourite, and the best trending. */
  private record Taste(
      Map<String, Double> brands, Map<String, Double> categories, double maxTrending) {
    /** Its affinity for the product plus a tie-break by trending; 0 for an unknown product. */
    double score(ItemModel items, String id) {
      ProductFacts product = items.product(id);
      if (product == null) return 0.0;
      return affinity(product)
          + (maxTrending > 0 ? TRENDING_TIE_BREAK * items.trending(id) / maxTrending : 0);
    }

    double affinity(ProductFacts product) {
      return share(brands, product.brand()) + share(categories, product.category());
    }
  }

  /** The user's taste, or null when they have none. */
  private @Nullable Taste taste(Context context, AlgorithmSettings settings) {
    UserSignals user = context.user();
    double halfLife = settings.param(algorithm(), "halfLifeMonths");
    YearMonth current = YearMonth.from(user.today());
    Map<String, Double> brands = decayed(user.brands(), current, halfLife);
    Map<String, Double> categories = decayed(user.categories(), current, halfLife);
    if (brands.isEmpty() && categories.isEmpty()) return null;
    ItemModel items = context.items();
    double maxTrending =
        items.popular().isEmpty() ? 0 : items.trending(items.popular().getFirst());
    return new Taste(brands, categories, maxTrending);
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    Taste taste = taste(context, settings);
    if (taste == null) return List.of();
    int top = (int) settings.param(algorithm(), "topTastes");
    ItemModel items = context.items();
    var scores = new HashMap<String, Double>();
    int perTaste = Math.max(n, PRODUCTS_PER_TASTE);
    for (String brand : top(taste.brands(), top))
      items.ofBrand(brand).stream().limit(perTaste).forEach(id -> scores.put(id, 0.0));
    for (String category : top(taste.categories(), top))
      items.ofCategory(category).stream().limit(perTaste).forEach(id -> scores.put(id, 0.0));
    scores.replaceAll((id, zero) -> taste.score(items, id));
    return Scored.top(scores, n);
  }

  @Override
  public Map<String, Double> scoresOf(
      Context context, AlgorithmSettings settings, Set<String> ids) {
    Taste taste = taste(context, settings);
    if (taste == null) return Map.of();
    ItemModel items = context.items();
    var scores = HashMap.<String, Double>newHashMap(ids.size());
    for (String id : ids) {
      ProductFacts product = items.product(id);
      // a product of none of the user's brands or categories has no affinity to weigh
      if (product != null && taste.affinity(product) > 0) scores.put(id, taste.score(items, id));
    }
    return scores;
  }

  /** Each key's decayed affinity divided by the favourite's, so the favourite is 1. */
  private static Map<String, Double> decayed(
      Map<String, Periods> periods, YearMonth current, double halfLife) {
    var affinity = new HashMap<String, Double>();
    periods.forEach((key, p) -> affinity.put(key, p.decayedMonths(current, halfLife)));
    double max =
        affinity.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    if (max <= 0) return Map.of();
    affinity.replaceAll((key, value) -> value / max);
    return affinity;
  }

  private static double share(Map<String, Double> affinity, @Nullable String key) {
    return key == null ? 0 : affinity.getOrDefault(key, 0.0);
  }

  private static List<String> top(Map<String, Double> affinity, int n) {
    return affinity.entrySet().stream()
        .filter(entry -> entry.getValue() > 0)
        .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(n)
        .map(Map.Entry::getKey)
        .toList();
  }
}

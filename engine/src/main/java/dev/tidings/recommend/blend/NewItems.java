package dev.tidings.recommend.blend;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;

/**
 * New items of what the user follows: available products of their followed brands and categories
 * created in the last days, newer first (score falls linearly from 1 when created to 0 at the window's
 * end); a product of a followed brand and a followed category counts twice.
 */
final class NewItems implements CandidateSource {
  @Override
  public Algorithm algorithm() {
    return Algorithm.NEW_ITEMS;
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    Follows follows = context.user().follows();
    if (follows.brands().isEmpty() && follows.categories().isEmpty()) return List.of();
    Duration window = Duration.ofDays((long) settings.param(algorithm(), "days"));
    Instant now = context.items().builtAt();
    var scores = new HashMap<String, Double>();
    for (String brand : follows.brands())
      add(context.items().newestOfBrand(brand), context, now, window, scores);
    for (String category : follows.categories())
      add(context.items().newestOfCategory(category), context, now, window, scores);
    return Scored.top(scores, n);
  }

  private static void add(
      List<String> newestFirst,
      Context context,
      Instant now,
      Duration window,
      HashMap<String, Double> scores) {
    for (String id : newestFirst) {
      ProductFacts product = context.items().product(id);
      if (product == null) continue;
      Duration age = Duration.between(product.createdAt(), now);
      if (age.compareTo(window) >= 0) return; // newest first: the rest are older still
      double freshness = 1 - Math.max(0, age.toMillis()) / (double) window.toMillis();
      scores.merge(id, freshness, Double::sum);
    }
  }
}

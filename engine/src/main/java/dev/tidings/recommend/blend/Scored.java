package dev.tidings.recommend.blend;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** A candidate product with its score from one algorithm (higher is better, comparable within it). */
public record Scored(String productId, double score) {
  static final Comparator<Scored> BEST_FIRST =
      Comparator.comparingDouble(Scored::score).reversed().thenComparing(Scored::productId);

  /** The {@code n} best of {@code scores} above zero, best first, ties by id so the order repeats. */
  static List<Scored> top(Map<String, Double> scores, int n) {
    var all = new ArrayList<Scored>(scores.size());
    scores.forEach((id, score) -> {
      if (score > 0) all.add(new Scored(id, score));
    });
    all.sort(BEST_FIRST);
    return all.size() > n ? List.copyOf(all.subList(0, n)) : List.copyOf(all);
  }
}

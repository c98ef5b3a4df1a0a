package dev.tidings.web.dashboard;

import dev.tidings.TidingsException;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommender;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A subscriber's recommendations for the explorer, asked of the recommender port the API answers
 * from, with the API's defaults (no exclusions, no campaign): the explorer shows what the API would.
 */
final class Recommendations {
  static final int COUNT = 10;
  private static final Duration DEADLINE = Duration.ofSeconds(2);

  private final Recommender recommender;
  private final InstantSource clock;

  Recommendations(Recommender recommender, InstantSource clock) {
    this.recommender = recommender;
    this.clock = clock;
  }

  /** One recommended product, its score and the algorithms that put it there. */
  /** {@code reasons}: each algorithm with its part of the score, the heaviest first. */
  record Item(String id, double score, List<String> reasons) {}

  /** What the recommender answered. */
  sealed interface Answer {}

  record Found(List<Item> items) implements Answer {}

  /** No recommendations for this subscriber yet. */
  record NoneYet() implements Answer {}

  record Failed(String why) implements Answer {}

  /** "buy_again 1.000" per reason when the shares are known, the bare names otherwise. */
  private static List<String> withShares(dev.tidings.recommend.Recommendations.Recommended item) {
    if (item.shares().isEmpty()) return item.reasons();
    var out = new ArrayList<String>(item.reasons().size());
    for (int at = 0; at < item.reasons().size(); at++)
      out.add(String.format(
          Locale.ROOT, "%s %.3f", item.reasons().get(at), item.shares().get(at)));
    return out;
  }

  Answer of(String subscriberId) {
    try {
      var answer = recommender.recommend(new RecommendationRequest(
          subscriberId,
          COUNT,
          Set.of(),
          Optional.empty(),
          Locale.ROOT,
          clock.instant().plus(DEADLINE)));
      List<Item> items = answer.items().stream()
          .map(item -> new Item(item.productId(), item.score(), withShares(item)))
          .toList();
      return items.isEmpty() ? new NoneYet() : new Found(items);
    } catch (RuntimeException e) {
      return new Failed("the recommender failed: " + TidingsException.rootMessage(e));
    }
  }
}

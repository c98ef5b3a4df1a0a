package dev.tidings.recommend.blend;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One algorithm of the blend: from what is known of a user and the items, its best {@code n}
 * candidates, best first. Runs on the request path, so it only reads memory: whatever it needs from
 * the database is in {@link Context}. Useful alone: each answers without the others.
 */
public interface CandidateSource {
  Algorithm algorithm();

  List<Scored> candidates(Context context, AlgorithmSettings settings, int n);

  /**
   * An algorithm that scores every product of the catalogue (popularity, affinity): the blender asks
   * it for its best {@code n}, then for its scores of the other algorithms' candidates. Any other
   * algorithm scores only what the user's history or its model reaches, and is asked once for all of
   * it, best first.
   */
  interface WholeCatalogue extends CandidateSource {
    /**
     * Its scores of {@code ids}, the candidates other algorithms found (a product it has no score for
     * is left out): so a product one algorithm offers is weighed by every other, not only by those
     * whose own best {@code n} it is in.
     */
    Map<String, Double> scoresOf(Context context, AlgorithmSettings settings, Set<String> ids);
  }

  /**
   * What a source may read: the user's signals (empty for an unknown user), the item model and the
   * EASE model (null until its first fit).
   */
  record Context(
      UserSignals user, ItemModel items, @Nullable EaseModel ease) {}

  /** Every algorithm's source, in {@link Algorithm} order. */
  static List<CandidateSource> all() {
    return List.of(
        new Trending(),
        new CoOccurrence(),
        new Affinity(),
        new RecentlyViewed(),
        new BuyAgain(),
        new NewItems(),
        new EaseSource());
  }
}

package dev.tidings.recommend.blend;

import java.util.List;
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

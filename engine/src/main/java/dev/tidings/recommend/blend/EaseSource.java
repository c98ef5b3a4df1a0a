package dev.tidings.recommend.blend;

import java.util.List;

/**
 * The model-based algorithm: EASE's scores for the user's most recent items (see {@link EaseModel}
 * for what it is fitted on and its limits). Nothing until the first fit has finished.
 */
final class EaseSource implements CandidateSource {
  @Override
  public Algorithm algorithm() {
    return Algorithm.EASE;
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    EaseModel ease = context.ease();
    if (ease == null) return List.of();
    List<String> seeds = context.user().recentItems((int) settings.param(algorithm(), "seeds"));
    if (seeds.isEmpty()) return List.of();
    return Scored.top(ease.scores(seeds), n);
  }
}

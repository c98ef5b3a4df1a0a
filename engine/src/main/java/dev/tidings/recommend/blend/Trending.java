package dev.tidings.recommend.blend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Popularity with time decay: every available product by its decayed count of the people who touched
 * it each recent day (computed in the background into the {@link ItemModel}; one per person a day, so
 * no one person's repeats move it); the same for every user.
 */
final class Trending implements CandidateSource.WholeCatalogue {
  @Override
  public Algorithm algorithm() {
    return Algorithm.POPULARITY;
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    var out = new ArrayList<Scored>(n);
    for (String id : context.items().popular()) {
      double score = context.items().trending(id);
      if (out.size() >= n || score <= 0) break;
      out.add(new Scored(id, score));
    }
    return out;
  }

  @Override
  public Map<String, Double> scoresOf(
      Context context, AlgorithmSettings settings, Set<String> ids) {
    var scores = HashMap.<String, Double>newHashMap(ids.size());
    for (String id : ids) {
      double score = context.items().trending(id);
      if (score > 0) scores.put(id, score);
    }
    return scores;
  }
}

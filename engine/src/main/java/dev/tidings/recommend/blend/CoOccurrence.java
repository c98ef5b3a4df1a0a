package dev.tidings.recommend.blend;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;

/**
 * Item to item: products viewed or bought in the same sessions as the user's most recent items. A
 * pair's sessions are divided by the geometric mean of the two items' counts (cosine), so a best seller
 * is not everyone's neighbour; a more recent seed weighs more (1 / rank). The seeds themselves are not
 * offered.
 */
final class CoOccurrence implements CandidateSource {
  @Override
  public Algorithm algorithm() {
    return Algorithm.CO_OCCURRENCE;
  }

  @Override
  public List<Scored> candidates(Context context, AlgorithmSettings settings, int n) {
    Algorithm self = algorithm();
    double viewWeight = settings.param(self, "coViewWeight");
    double purchaseWeight = settings.param(self, "coPurchaseWeight");
    List<String> seeds = context.user().recentItems((int) settings.param(self, "seeds"));
    var seedSet = new HashSet<>(seeds);
    var scores = new HashMap<String, Double>();
    ItemModel items = context.items();
    for (int rank = 0; rank < seeds.size(); rank++) {
      String seed = seeds.get(rank);
      double seedCount = Math.max(1, items.allTime(seed));
      double recency = 1.0 / (rank + 1);
      for (Neighbourhood.Neighbour neighbour : items.neighbours(seed)) {
        if (seedSet.contains(neighbour.item())) continue;
        double together =
            viewWeight * neighbour.coViews() + purchaseWeight * neighbour.coPurchases();
        double norm = Math.sqrt(seedCount * Math.max(1, items.allTime(neighbour.item())));
        scores.merge(neighbour.item(), recency * together / norm, Double::sum);
      }
    }
    return Scored.top(scores, n);
  }
}

package dev.tidings.recommend.evaluation;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Item-to-item neighbours: cosine similarity of two items' buyer sets, keeping each item's k most
 * similar; a user's score for an item is the sum of its similarities to what the user bought.
 */
public record ItemKnn(int neighbours) implements Algorithm {
  @Override
  public String name() {
    return "itemknn";
  }

  @Override
  public Model fit(Interactions training) {
    UserItems userItems = training.userItems();
    int n = training.itemCount();
    int[] identity = new int[n];
    Arrays.setAll(identity, item -> item);
    int[] co = CoPurchases.count(userItems, identity, n);
    int[][] neighbourIds = new int[n][];
    float[][] similarities = new float[n][];
    IntStream.range(0, n).parallel().forEach(item -> {
      double[] similarity = new double[n];
      Arrays.fill(similarity, Double.NEGATIVE_INFINITY);
      for (int other = 0; other < n; other++) {
        int both = co[item * n + other];
        if (other == item || both == 0) continue;
        similarity[other] =
            both / Math.sqrt((double) userItems.usersOf(item) * userItems.usersOf(other));
      }
      int[] top = TopN.of(similarity, neighbours, other -> false);
      neighbourIds[item] = top;
      similarities[item] = new float[top.length];
      for (int at = 0; at < top.length; at++) similarities[item][at] = (float) similarity[top[at]];
    });
    return (user, scores) -> {
      for (int bought : userItems.itemsOf(user)) {
        int[] ids = neighbourIds[bought];
        float[] sims = similarities[bought];
        for (int at = 0; at < ids.length; at++) {
          int item = ids[at];
          scores[item] = (scores[item] == Double.NEGATIVE_INFINITY ? 0 : scores[item]) + sims[at];
        }
      }
    };
  }
}

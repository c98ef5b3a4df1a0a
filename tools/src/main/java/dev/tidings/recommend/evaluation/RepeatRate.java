package dev.tidings.recommend.evaluation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.stream.IntStream;

/**
 * How much each user restocks compared with everybody: the share of the items in their baskets after
 * the first that they had bought before, shrunk towards the overall share (a user with few baskets says
 * little), divided by that overall share. Above 1 means buy-again deserves more weight for this user.
 */
final class RepeatRate {
  /** Weight of the overall share, in items: a user needs about this many later items to speak for themselves. */
  private static final double PRIOR_ITEMS = 10;

  private RepeatRate() {}

  static double[] relativeToEverybody(Interactions training) {
    int users = training.userCount();
    Integer[] order = IntStream.range(0, training.size()).boxed().toArray(Integer[]::new);
    Arrays.sort(order, (a, b) -> {
      int byUser = Integer.compare(training.user(a), training.user(b));
      if (byUser != 0) return byUser;
      int byTime = Long.compare(training.epochSecond(a), training.epochSecond(b));
      return byTime != 0 ? byTime : Integer.compare(training.basket(a), training.basket(b));
    });
    long[] repeats = new long[users];
    long[] later = new long[users];
    var seen = new HashSet<Integer>();
    var basketItems = new ArrayList<Integer>();
    int currentUser = -1;
    int currentBasket = -1;
    boolean first = true;
    for (int at = 0; at <= order.length; at++) {
      boolean end = at == order.length;
      int row = end ? -1 : order[at];
      boolean newBasket =
          end || training.user(row) != currentUser || training.basket(row) != currentBasket;
      if (newBasket && currentUser >= 0) {
        // close the basket: count it against what came before, then remember its items
        if (!first) {
          for (int item : basketItems) {
            later[currentUser]++;
            if (seen.contains(item)) repeats[currentUser]++;
          }
        }
        seen.addAll(basketItems);
        basketItems.clear();
        first = false;
      }
      if (end) break;
      if (training.user(row) != currentUser) {
        seen.clear();
        first = true;
        currentUser = training.user(row);
      }
      currentBasket = training.basket(row);
      basketItems.add(training.item(row));
    }
    long allRepeats = Arrays.stream(repeats).sum();
    long allLater = Arrays.stream(later).sum();
    double overall = allLater == 0 ? 1 : Math.max(1e-6, (double) allRepeats / allLater);
    double[] scale = new double[users];
    for (int user = 0; user < users; user++) {
      double rate = (repeats[user] + PRIOR_ITEMS * overall) / (later[user] + PRIOR_ITEMS);
      scale[user] = rate / overall;
    }
    return scale;
  }
}

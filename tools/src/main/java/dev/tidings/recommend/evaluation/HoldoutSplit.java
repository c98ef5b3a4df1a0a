package dev.tidings.recommend.evaluation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The temporal holdout: each user's last basket (latest time; the later basket id on a tie) is what the
 * algorithms must predict from everything else. A user with a single basket has nothing to learn from,
 * so is not tested, but their rows stay in training (they still make items popular and co-bought).
 */
public record HoldoutSplit(Interactions training, List<Holdout> holdouts) {
  /** One user's held-out basket: its distinct items, sorted. */
  public record Holdout(int user, int[] items) {}

  public HoldoutSplit {
    holdouts = List.copyOf(holdouts);
  }

  public static HoldoutSplit of(Interactions rows) {
    int users = rows.userCount();
    long[] lastTime = new long[users];
    int[] lastBasket = new int[users];
    Arrays.fill(lastTime, Long.MIN_VALUE);
    Arrays.fill(lastBasket, -1);
    for (int row = 0; row < rows.size(); row++) {
      int user = rows.user(row);
      long time = rows.epochSecond(row);
      int basket = rows.basket(row);
      if (time > lastTime[user] || (time == lastTime[user] && basket > lastBasket[user])) {
        lastTime[user] = time;
        lastBasket[user] = basket;
      }
    }
    boolean[] hasEarlier = new boolean[users];
    for (int row = 0; row < rows.size(); row++) {
      if (rows.basket(row) != lastBasket[rows.user(row)]) hasEarlier[rows.user(row)] = true;
    }
    Interactions training = rows.filter(
        row -> !hasEarlier[rows.user(row)] || rows.basket(row) != lastBasket[rows.user(row)]);
    Interactions tested = rows.filter(
        row -> hasEarlier[rows.user(row)] && rows.basket(row) == lastBasket[rows.user(row)]);
    UserItems held = tested.userItems();
    List<Holdout> holdouts = new ArrayList<>();
    for (int user = 0; user < users; user++) {
      if (hasEarlier[user]) holdouts.add(new Holdout(user, held.itemsOf(user)));
    }
    return new HoldoutSplit(training, holdouts);
  }
}

package dev.tidings.recommend.evaluation;

import java.util.Arrays;

/** Tiny hand-made interaction sets: a day is 86,400 seconds, baskets named per user. */
final class Tiny {
  static final long DAY = 86_400;
  private final Interactions.Builder builder = new Interactions.Builder();

  Tiny buy(String user, String basket, long day, String... items) {
    for (String item : items) builder.add(user, item, basket, day * DAY, 1);
    return this;
  }

  Interactions build() {
    return builder.build();
  }

  static int[] items(Interactions rows, String... ids) {
    int[] out = new int[ids.length];
    for (int at = 0; at < ids.length; at++) out[at] = itemIndex(rows, ids[at]);
    return out;
  }

  static int itemIndex(Interactions rows, String id) {
    for (int item = 0; item < rows.itemCount(); item++)
      if (rows.itemId(item).equals(id)) return item;
    throw new IllegalArgumentException(id);
  }

  static int userIndex(Interactions rows, String id) {
    for (int user = 0; user < rows.userCount(); user++)
      if (rows.userId(user).equals(id)) return user;
    throw new IllegalArgumentException(id);
  }

  static int[] top(Algorithm.Model model, Interactions rows, String user, int n) {
    double[] scores = new double[rows.itemCount()];
    Arrays.fill(scores, Double.NEGATIVE_INFINITY);
    model.score(userIndex(rows, user), scores);
    return TopN.of(scores, n, item -> false);
  }

  private Tiny() {}

  static Tiny rows() {
    return new Tiny();
  }
}

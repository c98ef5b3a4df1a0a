package dev.tidings.recommend.evaluation;

import java.util.Arrays;

/**
 * Each user's distinct items, sorted, in one array with offsets (compressed sparse rows), and how many
 * users bought each item: the binary user x item matrix that ItemKNN and EASE start from.
 */
public final class UserItems {
  private final int[] offsets;
  private final int[] items;
  private final int[] usersPerItem;

  private UserItems(int[] offsets, int[] items, int[] usersPerItem) {
    this.offsets = offsets;
    this.items = items;
    this.usersPerItem = usersPerItem;
  }

  static UserItems of(Interactions rows) {
    int userCount = rows.userCount();
    long[] pairs = new long[rows.size()];
    for (int row = 0; row < rows.size(); row++) {
      pairs[row] = ((long) rows.user(row) << 32) | rows.item(row);
    }
    Arrays.sort(pairs);
    int[] offsets = new int[userCount + 1];
    int[] items = new int[pairs.length];
    int[] usersPerItem = new int[rows.itemCount()];
    int distinct = 0;
    long previous = -1;
    for (long pair : pairs) {
      if (pair == previous) continue;
      previous = pair;
      int user = (int) (pair >>> 32);
      int item = (int) pair;
      items[distinct++] = item;
      offsets[user + 1]++;
      usersPerItem[item]++;
    }
    for (int user = 0; user < userCount; user++) offsets[user + 1] += offsets[user];
    return new UserItems(offsets, Arrays.copyOf(items, distinct), usersPerItem);
  }

  public int userCount() {
    return offsets.length - 1;
  }

  public int itemCount() {
    return usersPerItem.length;
  }

  /** The user's distinct items, sorted ascending (a fresh copy). */
  public int[] itemsOf(int user) {
    return Arrays.copyOfRange(items, offsets[user], offsets[user + 1]);
  }

  public boolean bought(int user, int item) {
    return Arrays.binarySearch(items, offsets[user], offsets[user + 1], item) >= 0;
  }

  public int usersOf(int item) {
    return usersPerItem[item];
  }
}

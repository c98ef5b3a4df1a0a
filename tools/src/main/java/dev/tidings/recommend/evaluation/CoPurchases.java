package dev.tidings.recommend.evaluation;

/**
 * X^T X of the binary user x item matrix over a chosen set of items: how many users bought both, dense,
 * because a few thousand items fit in memory and a dense array is far faster than maps.
 */
final class CoPurchases {
  private CoPurchases() {}

  /**
   * {@code column[item]} is the item's row/column in the result, or -1 to leave it out; the result is
   * {@code size x size}, row-major.
   */
  static int[] count(UserItems userItems, int[] column, int size) {
    int[] counts = new int[size * size];
    int[] mapped = new int[userItems.itemCount()];
    for (int user = 0; user < userItems.userCount(); user++) {
      int[] items = userItems.itemsOf(user);
      int n = 0;
      for (int item : items) if (column[item] >= 0) mapped[n++] = column[item];
      for (int a = 0; a < n; a++) {
        int base = mapped[a] * size;
        for (int b = 0; b < n; b++) counts[base + mapped[b]]++;
      }
    }
    return counts;
  }
}

package dev.tidings.recommend.evaluation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Who bought what, when, in which basket, as parallel primitive arrays: half a million rows take a few
 * megabytes and every algorithm scans them without boxing. Users, items and baskets are dense int ids;
 * a subset made by {@link #filter} keeps the same id space, so a model fitted on training rows scores
 * the same ids the test baskets use.
 */
public final class Interactions {
  private final int[] users;
  private final int[] items;
  private final int[] baskets;
  private final long[] epochSeconds;
  private final int[] quantities;
  private final List<String> userIds;
  private final List<String> itemIds;

  private Interactions(
      int[] users,
      int[] items,
      int[] baskets,
      long[] epochSeconds,
      int[] quantities,
      List<String> userIds,
      List<String> itemIds) {
    this.users = users;
    this.items = items;
    this.baskets = baskets;
    this.epochSeconds = epochSeconds;
    this.quantities = quantities;
    this.userIds = userIds;
    this.itemIds = itemIds;
  }

  public int size() {
    return users.length;
  }

  public int user(int row) {
    return users[row];
  }

  public int item(int row) {
    return items[row];
  }

  public int basket(int row) {
    return baskets[row];
  }

  public long epochSecond(int row) {
    return epochSeconds[row];
  }

  public int quantity(int row) {
    return quantities[row];
  }

  /** Size of the user id space (also of users with no row in this subset). */
  public int userCount() {
    return userIds.size();
  }

  /** Size of the item id space (also of items with no row in this subset). */
  public int itemCount() {
    return itemIds.size();
  }

  public String userId(int user) {
    return userIds.get(user);
  }

  public String itemId(int item) {
    return itemIds.get(item);
  }

  /** The latest time in these rows; recency is measured back from here. */
  public long lastEpochSecond() {
    long last = Long.MIN_VALUE;
    for (long t : epochSeconds) last = Math.max(last, t);
    return last;
  }

  /** The rows that pass, in the same id space. */
  public Interactions filter(IntPredicate keepRow) {
    int kept = 0;
    for (int row = 0; row < size(); row++) if (keepRow.test(row)) kept++;
    int[] u = new int[kept];
    int[] i = new int[kept];
    int[] b = new int[kept];
    long[] t = new long[kept];
    int[] q = new int[kept];
    int at = 0;
    for (int row = 0; row < size(); row++) {
      if (!keepRow.test(row)) continue;
      u[at] = users[row];
      i[at] = items[row];
      b[at] = baskets[row];
      t[at] = epochSeconds[row];
      q[at] = quantities[row];
      at++;
    }
    return new Interactions(u, i, b, t, q, userIds, itemIds);
  }

  /** Per user, the distinct items of these rows, sorted: a compressed sparse row matrix. */
  public UserItems userItems() {
    return UserItems.of(this);
  }

  /**
   * Collects rows as a file is read, interning the string ids; one builder per file, not thread-safe.
   */
  public static final class Builder {
    private final Map<String, Integer> userIndex = new HashMap<>();
    private final Map<String, Integer> itemIndex = new HashMap<>();
    private final Map<String, Integer> basketIndex = new HashMap<>();
    private final List<String> userIds = new ArrayList<>();
    private final List<String> itemIds = new ArrayList<>();
    private int[] users = new int[1024];
    private int[] items = new int[1024];
    private int[] baskets = new int[1024];
    private long[] epochSeconds = new long[1024];
    private int[] quantities = new int[1024];
    private int size;

    /** {@code basketKey} groups the rows of one order or session; it only needs to be unique per user. */
    public void add(
        String userId, String itemId, String basketKey, long epochSecond, int quantity) {
      if (size == users.length) grow();
      int user = intern(userIndex, userIds, userId);
      users[size] = user;
      items[size] = intern(itemIndex, itemIds, itemId);
      baskets[size] =
          basketIndex.computeIfAbsent(userId + '\u0000' + basketKey, key -> basketIndex.size());
      epochSeconds[size] = epochSecond;
      quantities[size] = quantity;
      size++;
    }

    private static int intern(Map<String, Integer> index, List<String> ids, String id) {
      Integer known = index.get(id);
      if (known != null) return known;
      index.put(id, ids.size());
      ids.add(id);
      return ids.size() - 1;
    }

    private void grow() {
      int capacity = users.length * 2;
      users = Arrays.copyOf(users, capacity);
      items = Arrays.copyOf(items, capacity);
      baskets = Arrays.copyOf(baskets, capacity);
      epochSeconds = Arrays.copyOf(epochSeconds, capacity);
      quantities = Arrays.copyOf(quantities, capacity);
    }

    public Interactions build() {
      return new Interactions(
          Arrays.copyOf(users, size),
          Arrays.copyOf(items, size),
          Arrays.copyOf(baskets, size),
          Arrays.copyOf(epochSeconds, size),
          Arrays.copyOf(quantities, size),
          List.copyOf(userIds),
          List.copyOf(itemIds));
    }
  }
}

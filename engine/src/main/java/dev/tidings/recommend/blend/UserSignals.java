package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one user's aggregates say, grouped for the algorithms: per brand and per category their
 * affinity periods, per item their purchase periods and their view days, and what they follow. Built
 * from the one prefix read of {@code s@user:s@<id>:}; aggregates of other layouts are ignored.
 */
public final class UserSignals {
  private final String userId;
  private final LocalDate today;
  private final Map<String, Periods> brands = new HashMap<>();
  private final Map<String, Periods> categories = new HashMap<>();
  private final Map<String, Periods> purchases = new HashMap<>();
  private final Map<String, Periods> views = new HashMap<>();
  private final Follows follows;

  private UserSignals(String userId, LocalDate today, Follows follows) {
    this.userId = userId;
    this.today = today;
    this.follows = follows;
  }

  /** A user with no activity read (unknown, or the read did not come back in time). */
  static UserSignals none(String userId, LocalDate today) {
    return new UserSignals(userId, today, Follows.NONE);
  }

  static UserSignals of(
      String userId, List<AggregateStore.Entry> entries, Follows follows, LocalDate today) {
    var signals = new UserSignals(userId, today, follows);
    for (AggregateStore.Entry entry : entries) signals.add(entry.key(), entry.value());
    return signals;
  }

  /** The kinds of aggregate the algorithms read from a user's, in the order of {@link #into}. */
  enum Kind {
    BRAND,
    CATEGORY,
    PURCHASES,
    VIEWS
  }

  /**
   * Which kind of the user's signals an aggregate is, if any the algorithms read:
   * {@code s@user:s@<id>:s@<dimension>:s@<value>:s@<aggregation>:s@<algorithm>:b@<period>}.
   */
  static @Nullable Kind kind(AggregateKey key) {
    if (key.bucket().isEmpty() || key.parts().size() != 7) return null;
    String dimension = Keys.text(key, 2);
    return switch (Keys.text(key, 4)) {
      case Keys.USER_BRAND -> Keys.BRAND.equals(dimension) ? Kind.BRAND : null;
      case Keys.USER_CATEGORY -> Keys.CATEGORY.equals(dimension) ? Kind.CATEGORY : null;
      case Keys.USER_ITEM_PURCHASES -> Keys.ITEM.equals(dimension) ? Kind.PURCHASES : null;
      case Keys.USER_ITEM_VIEWS -> Keys.ITEM.equals(dimension) ? Kind.VIEWS : null;
      default -> null;
    };
  }

  /** The brand, category or item an aggregate of a {@link #kind} is about. */
  static String target(AggregateKey key) {
    return Keys.text(key, 3);
  }

  private void add(AggregateKey key, double value) {
    Kind kind = kind(key);
    if (kind != null) add(kind, target(key), key.bucket().orElseThrow(), value);
  }

  /** One aggregate already sorted by kind (a node's memory keeps them so). */
  void add(Kind kind, String target, KeyPart.Bucket bucket, double value) {
    Map<String, Periods> into = switch (kind) {
      case BRAND -> brands;
      case CATEGORY -> categories;
      case PURCHASES -> purchases;
      case VIEWS -> views;
    };
    into.computeIfAbsent(target, t -> new Periods()).add(bucket, value);
  }

  /** A user's signals to be filled with {@link #add(Kind, String, KeyPart.Bucket, double)}. */
  static UserSignals empty(String userId, LocalDate today, Follows follows) {
    return new UserSignals(userId, today, follows);
  }

  public String userId() {
    return userId;
  }

  LocalDate today() {
    return today;
  }

  Map<String, Periods> brands() {
    return brands;
  }

  Map<String, Periods> categories() {
    return categories;
  }

  Map<String, Periods> purchases() {
    return purchases;
  }

  Map<String, Periods> views() {
    return views;
  }

  Follows follows() {
    return follows;
  }

  boolean bought(String item) {
    Periods periods = purchases.get(item);
    return periods != null && periods.allTime() > 0;
  }

  public boolean isEmpty() {
    return brands.isEmpty()
        && categories.isEmpty()
        && purchases.isEmpty()
        && views.isEmpty()
        && follows.brands().isEmpty()
        && follows.categories().isEmpty();
  }

  private static LocalDate later(LocalDate a, LocalDate b) {
    return a.isAfter(b) ? a : b;
  }

  /**
   * The items the user touched last (viewed or bought), most recent first, at most {@code n}: the
   * seeds of the item-to-item algorithms.
   */
  List<String> recentItems(int n) {
    var latest = new HashMap<String, LocalDate>();
    views.forEach((item, periods) -> latest.merge(item, periods.latest(), UserSignals::later));
    purchases.forEach((item, periods) -> latest.merge(item, periods.latest(), UserSignals::later));
    var items = new ArrayList<>(latest.entrySet());
    items.sort(Map.Entry.<String, LocalDate>comparingByValue(Comparator.reverseOrder())
        .thenComparing(Map.Entry.comparingByKey()));
    return items.stream().limit(n).map(Map.Entry::getKey).toList();
  }
}

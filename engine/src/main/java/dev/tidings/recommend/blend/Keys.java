package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.activity.aggregate.KeyPart.Text;

/**
 * The aggregate keys the recommender reads, as the activity capability counts them (the layout is the
 * contract between the two): built from typed parts, never by joining strings, so an id holding a
 * {@code :} or {@code \} is escaped.
 */
public final class Keys {
  static final String USER = "user";
  static final String ITEM = "item";
  static final String BRAND = "brand";
  static final String CATEGORY = "category";
  static final String CO_ITEM = "co_item";
  static final String CO_VIEW = "co_view";
  static final String CO_PURCHASE = "co_purchase";
  static final String ITEM_POPULARITY = "item_popularity";
  static final String ITEM_BUYERS = "item_buyers";
  static final String USER_BRAND = "user_brand";
  static final String USER_CATEGORY = "user_category";
  static final String USER_ITEM_PURCHASES = "user_item_purchases";
  static final String USER_ITEM_VIEWS = "user_item_views";

  private Keys() {}

  /** Every aggregate of one user: {@code s@user:s@<id>}, read under its segments. */
  /** The part every user's aggregates start with. */
  static AggregateKey userPrefix() {
    return AggregateKey.of(new Text(USER));
  }

  public static AggregateKey user(String userId) {
    return AggregateKey.of(new Text(USER), new Text(userId));
  }

  public static AggregateKey itemPopularity(String item, KeyPart.Bucket period) {
    return AggregateKey.of(
        new Text(ITEM), new Text(item), new Text(ITEM_POPULARITY), new Text("popularity"), period);
  }

  public static AggregateKey itemBuyers(String item, KeyPart.Bucket period) {
    return AggregateKey.of(
        new Text(ITEM), new Text(item), new Text(ITEM_BUYERS), new Text("popularity"), period);
  }

  public static AggregateKey userBrand(String user, String brand, KeyPart.Bucket period) {
    return AggregateKey.of(
        new Text(USER),
        new Text(user),
        new Text(BRAND),
        new Text(brand),
        new Text(USER_BRAND),
        new Text("affinity"),
        period);
  }

  public static AggregateKey userCategory(String user, String category, KeyPart.Bucket period) {
    return AggregateKey.of(
        new Text(USER),
        new Text(user),
        new Text(CATEGORY),
        new Text(category),
        new Text(USER_CATEGORY),
        new Text("affinity"),
        period);
  }

  public static AggregateKey purchases(String user, String item, KeyPart.Bucket period) {
    return AggregateKey.of(
        new Text(USER),
        new Text(user),
        new Text(ITEM),
        new Text(item),
        new Text(USER_ITEM_PURCHASES),
        new Text("buy_again"),
        period);
  }

  public static AggregateKey views(String user, String item, KeyPart.Day day) {
    return AggregateKey.of(
        new Text(USER),
        new Text(user),
        new Text(ITEM),
        new Text(item),
        new Text(USER_ITEM_VIEWS),
        new Text("recently_viewed"),
        day);
  }

  /** {@code kind} is {@link #CO_VIEW} or {@link #CO_PURCHASE}. */
  static AggregateKey coOccurrence(String a, String b, String kind, KeyPart.Bucket period) {
    return AggregateKey.of(
        new Text(ITEM),
        new Text(a),
        new Text(CO_ITEM),
        new Text(b),
        new Text(kind),
        new Text("cooccurrence"),
        period);
  }

  public static AggregateKey coView(String a, String b, KeyPart.Bucket period) {
    return coOccurrence(a, b, CO_VIEW, period);
  }

  public static AggregateKey coPurchase(String a, String b, KeyPart.Bucket period) {
    return coOccurrence(a, b, CO_PURCHASE, period);
  }

  /** The text of segment {@code index}, or empty text when it is not a text segment. */
  static String text(AggregateKey key, int index) {
    return index < key.parts().size() && key.parts().get(index) instanceof Text text
        ? text.value()
        : "";
  }
}

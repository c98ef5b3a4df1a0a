package dev.tidings.opentime;

import dev.tidings.storage.PublishedSql;

/**
 * The kept slot lists as a predicate on a subscriber row aliased {@code s}, for statements other
 * capabilities compose (a campaign's segment "opened campaign X"), and as a row source with the columns
 * it publishes (what each email showed, for the clicks' products).
 */
public final class ShownSql {
  private ShownSql() {}

  /**
   * What each email showed, as a FROM item under {@code alias} for one statement that joins it to
   * another capability's rows: columns {@code message_id} and {@code product_ids} (text[], the product
   * of slot i at index i + 1), one row per email whose list was kept.
   */
  public static String shownProducts(String alias) {
    if (!alias.matches("[a-z]{1,8}")) throw new IllegalArgumentException("not an alias: " + alias);
    return PublishedSql.by(
        ShownSql.class,
        "(SELECT message_id, product_ids FROM message_slots) AS " + alias
            + " (message_id, product_ids)");
  }

  /**
   * An email of campaign {@code :<p>campaign} showed the subscriber its products: its images were
   * fetched, which is when a list is kept.
   */
  public static String shownCampaign(String p) {
    return PublishedSql.by(
        ShownSql.class,
        "EXISTS (SELECT 1 FROM message_slots m WHERE m.subscriber_id = s.id AND m.campaign_id = :"
            + p + "campaign)");
  }

  /** An email of any campaign showed the subscriber its products at or after {@code :<p>since}. */
  public static String shownSince(String p) {
    return PublishedSql.by(
        ShownSql.class,
        "EXISTS (SELECT 1 FROM message_slots m WHERE m.subscriber_id = s.id AND m.chosen_at >= :"
            + p + "since)");
  }
}

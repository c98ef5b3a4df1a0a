package dev.tidings.opentime;

/**
 * The kept slot lists as a predicate on a subscriber row aliased {@code s}, for statements other
 * capabilities compose (a campaign's segment "opened campaign X").
 */
public final class ShownSql {
  private ShownSql() {}

  /**
   * The kept lists as a FROM item under {@code alias}, for one statement that joins them to another
   * capability's rows: columns {@code message_id}, {@code subscriber_id}, {@code campaign_id},
   * {@code product_ids} (text[], slot i at index i + 1) and {@code chosen_at}.
   */
  public static String keptListsAs(String alias) {
    if (!alias.matches("[a-z]{1,8}")) throw new IllegalArgumentException("not an alias: " + alias);
    return "message_slots " + alias;
  }

  /**
   * An email of campaign {@code :<p>campaign} showed the subscriber its products: its images were
   * fetched, which is when a list is kept.
   */
  public static String shownCampaign(String p) {
    return "EXISTS (SELECT 1 FROM message_slots m WHERE m.subscriber_id = s.id AND m.campaign_id = :"
        + p + "campaign)";
  }

  /** An email of any campaign showed the subscriber its products at or after {@code :<p>since}. */
  public static String shownSince(String p) {
    return "EXISTS (SELECT 1 FROM message_slots m WHERE m.subscriber_id = s.id AND m.chosen_at >= :"
        + p + "since)";
  }
}

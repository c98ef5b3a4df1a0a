package dev.tidings.opentime;

/**
 * The kept slot lists as a predicate on a subscriber row aliased {@code s}, for statements other
 * capabilities compose (a campaign's segment "opened campaign X").
 */
public final class ShownSql {
  private ShownSql() {}

  /**
   * An email of campaign {@code :<p>campaign} showed the subscriber its products: its images were
   * fetched, which is when a list is kept.
   */
  public static String shownCampaign(String p) {
    return "EXISTS (SELECT 1 FROM message_slots m WHERE m.subscriber_id = s.id AND m.campaign_id = :"
        + p + "campaign)";
  }
}

package dev.tidings.campaign.send;

import dev.tidings.storage.PublishedSql;

/**
 * The send ledger's recipients as a FROM item, for statements other capabilities compose (the funnel
 * split by send-time cohort).
 */
public final class LedgerSql {
  private LedgerSql() {}

  /**
   * The recipients of campaign {@code :campaign}'s bulk runs that had a send-time plan, as a FROM item
   * under {@code alias}: columns {@code subscriber_id} and {@code cohort} (0 timed, 1 held out, as
   * {@link PlannedSend.Cohort}).
   */
  public static String cohorts(String alias) {
    if (!alias.matches("[a-z]{1,8}")) throw new IllegalArgumentException("not an alias: " + alias);
    return PublishedSql.by(
        LedgerSql.class,
        "(SELECT subscriber_id, cohort FROM send_recipient"
            + " WHERE campaign_id = :campaign AND cohort IS NOT NULL AND part >= 0) AS " + alias
            + " (subscriber_id, cohort)");
  }
}

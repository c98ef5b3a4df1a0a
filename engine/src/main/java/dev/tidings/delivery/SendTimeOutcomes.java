package dev.tidings.delivery;

import dev.tidings.campaign.send.LedgerSql;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * What per-subscriber send times did for a campaign: for the timed cohort and the hold-out, how many
 * were sent, how many people opened (the funnel's first human open, machines left out), and when,
 * in hours after their own send. One statement over the funnel and the ledger's cohorts.
 */
public final class SendTimeOutcomes {
  /** Hours after the send the chart shows; later opens count in the rate only. */
  public static final int HOURS_SHOWN = 48;

  private final Jdbi jdbi;

  public SendTimeOutcomes(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** One cohort's figures; {@code opensByHour[h]} opened h..h+1 hours after their send. */
  public record Cohort(
      String name, long sent, long humanOpened, double openRate, long[] opensByHour) {}

  /** The timed cohort then the hold-out; empty when the campaign had no send-time plan. */
  public List<Cohort> of(long campaignId) {
    long[][] byHour = new long[2][HOURS_SHOWN];
    long[] sent = new long[2];
    long[] opened = new long[2];
    boolean[] any = new boolean[1];
    jdbi.useHandle(handle -> handle
        .createQuery("SELECT c.cohort, "
            + " floor(extract(epoch FROM st.first_at - ms.sent_at) / 3600)::int AS hour,"
            + " count(*) AS messages, count(st.message_id) AS opened"
            + " FROM " + LedgerSql.cohorts("c")
            + " JOIN message_status ms ON ms.campaign_id = :campaign"
            + "  AND ms.subscriber_id = c.subscriber_id AND ms.sent_at IS NOT NULL"
            + " LEFT JOIN message_steps st ON st.message_id = ms.message_id AND st.step = :human"
            + " GROUP BY 1, 2")
        .bind("campaign", campaignId)
        .bind("human", (short) FunnelStep.HUMAN_OPENED.code())
        .map((rows, context) -> {
          int cohort = rows.getInt(1);
          Integer hour = rows.getObject(2) == null ? null : rows.getInt(2);
          long messages = rows.getLong(3);
          long people = rows.getLong(4);
          any[0] = true;
          sent[cohort] += messages;
          opened[cohort] += people;
          if (hour != null && hour >= 0 && hour < HOURS_SHOWN) byHour[cohort][hour] += people;
          return 0;
        })
        .forEach(ignored -> {}));
    if (!any[0]) return List.of();
    List<Cohort> out = new ArrayList<>(2);
    String[] names = {"timed", "held out"};
    for (int cohort = 0; cohort < 2; cohort++)
      out.add(new Cohort(
          names[cohort],
          sent[cohort],
          opened[cohort],
          sent[cohort] == 0 ? 0 : (double) opened[cohort] / sent[cohort],
          byHour[cohort]));
    return out;
  }
}

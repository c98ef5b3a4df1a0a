package dev.tidings.campaign.send;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * The ledger's rows per recipient and per partition of a bulk run expire once the run finished
 * (completed or cancelled) before the time asked; the run's row, with what it planned, sent, failed
 * and skipped, stays for good. A run of triggered sends never finishes and keeps its rows: a row is
 * what stops the same triggered email going to the same subscriber twice.
 */
public final class LedgerExpiry implements Expiry {
  private final Jdbi jdbi;

  public LedgerExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "send_recipient";
  }

  /** Removes up to a batch of one expired run's recipients, and its partitions with the last. */
  @Override
  public Removed removeSome(Instant before, int batch) {
    return jdbi.inTransaction(handle -> {
      var run = handle
          .createQuery("""
              SELECT campaign_id, run_id FROM send_run s
              WHERE bulk AND finished_at < :before
                AND state IN ('COMPLETED', 'COMPLETED_WITH_ERRORS', 'CANCELLED')
                AND (EXISTS (SELECT 1 FROM send_recipient r
                             WHERE r.campaign_id = s.campaign_id AND r.run_id = s.run_id)
                  OR EXISTS (SELECT 1 FROM send_partition p
                             WHERE p.campaign_id = s.campaign_id AND p.run_id = s.run_id))
              ORDER BY finished_at LIMIT 1""")
          .bind("before", before)
          .map((rs, ctx) -> new long[] {rs.getLong("campaign_id"), rs.getLong("run_id")})
          .findOne();
      if (run.isEmpty()) return new Removed(0, true);
      long campaign = run.get()[0];
      long runId = run.get()[1];
      int removed = handle
          .createUpdate("""
              DELETE FROM send_recipient WHERE campaign_id = :campaign AND run_id = :run
                AND subscriber_id IN (
                  SELECT subscriber_id FROM send_recipient
                  WHERE campaign_id = :campaign AND run_id = :run LIMIT :batch)""")
          .bind("campaign", campaign)
          .bind("run", runId)
          .bind("batch", batch)
          .execute();
      if (removed < batch)
        handle
            .createUpdate(
                "DELETE FROM send_partition WHERE campaign_id = :campaign AND run_id = :run")
            .bind("campaign", campaign)
            .bind("run", runId)
            .execute();
      // another run may have expired too: the next step looks
      return new Removed(removed, false);
    });
  }
}

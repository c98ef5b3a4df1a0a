package dev.tidings.optimize;

import dev.tidings.storage.BatchedDelete;
import dev.tidings.storage.Expiry;
import org.jdbi.v3.core.Jdbi;

/**
 * Which variant each email was expires with the email's records; the counts per variant and the
 * decision are the experiment's results and stay. A rollout is made soon after its test decided, and
 * a segment over an experiment's test looks only as far back as the emails kept.
 */
public final class ExperimentSendExpiry {
  private ExperimentSendExpiry() {}

  public static Expiry of(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "experiment_sends", """
          DELETE FROM experiment_sends WHERE message_id IN (
            SELECT message_id FROM experiment_sends WHERE sent_at < :before
            ORDER BY sent_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }
}

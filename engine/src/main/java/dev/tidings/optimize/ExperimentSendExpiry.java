package dev.tidings.optimize;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * Which variant each email was expires with the email's records; the counts per variant and the
 * decision are the experiment's results and stay. A rollout is made soon after its test decided, and
 * a segment over an experiment's test looks only as far back as the emails kept.
 */
public final class ExperimentSendExpiry implements Expiry {
  private final Jdbi jdbi;

  public ExperimentSendExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "experiment_sends";
  }

  @Override
  public Removed removeSome(Instant before, int batch) {
    int removed = jdbi.withHandle(handle ->
        handle.createUpdate("""
            DELETE FROM experiment_sends WHERE message_id IN (
              SELECT message_id FROM experiment_sends WHERE sent_at < :before
              ORDER BY sent_at LIMIT :batch FOR UPDATE SKIP LOCKED)""").bind("before", before).bind("batch", batch).execute());
    return Removed.ofBatch(removed, batch);
  }
}

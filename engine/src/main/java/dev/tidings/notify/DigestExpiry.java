package dev.tidings.notify;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/** What a digest email told expires with the email's records: sent before the time asked. */
public final class DigestExpiry implements Expiry {
  private final Jdbi jdbi;

  public DigestExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "digests_sent";
  }

  @Override
  public Removed removeSome(Instant before, int batch) {
    int removed = jdbi.withHandle(handle ->
        handle.createUpdate("""
            DELETE FROM digests_sent WHERE (campaign_id, run_id, subscriber_id) IN (
              SELECT campaign_id, run_id, subscriber_id FROM digests_sent WHERE sent_at < :before
              ORDER BY sent_at LIMIT :batch FOR UPDATE SKIP LOCKED)""").bind("before", before).bind("batch", batch).execute());
    return Removed.ofBatch(removed, batch);
  }
}

package dev.tidings.notify;

import dev.tidings.storage.BatchedDelete;
import dev.tidings.storage.Expiry;
import org.jdbi.v3.core.Jdbi;

/** What a digest email told expires with the email's records: sent before the time asked. */
public final class DigestExpiry {
  private DigestExpiry() {}

  public static Expiry of(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "digests_sent", """
          DELETE FROM digests_sent WHERE (campaign_id, run_id, subscriber_id) IN (
            SELECT campaign_id, run_id, subscriber_id FROM digests_sent WHERE sent_at < :before
            ORDER BY sent_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }
}

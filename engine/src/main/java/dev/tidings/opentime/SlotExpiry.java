package dev.tidings.opentime;

import dev.tidings.storage.BatchedDelete;
import dev.tidings.storage.Expiry;
import org.jdbi.v3.core.Jdbi;

/**
 * An email's kept slot list expires with the email's records: chosen before the time asked. An email
 * opened after that gets a list chosen anew, as on its first open; its past lists no longer keep the
 * products they showed out of the next email's, which looks back a few emails only anyway.
 */
public final class SlotExpiry {
  private SlotExpiry() {}

  public static Expiry of(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "message_slots", """
          DELETE FROM message_slots WHERE message_id IN (
            SELECT message_id FROM message_slots WHERE chosen_at < :before
            ORDER BY chosen_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }
}

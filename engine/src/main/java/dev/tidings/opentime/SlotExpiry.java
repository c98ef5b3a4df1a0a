package dev.tidings.opentime;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * An email's kept slot list expires with the email's records: chosen before the time asked. An email
 * opened after that gets a list chosen anew, as on its first open; its past lists no longer keep the
 * products they showed out of the next email's, which looks back a few emails only anyway.
 */
public final class SlotExpiry implements Expiry {
  private final Jdbi jdbi;

  public SlotExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "message_slots";
  }

  @Override
  public Removed removeSome(Instant before, int batch) {
    int removed = jdbi.withHandle(handle ->
        handle.createUpdate("""
            DELETE FROM message_slots WHERE message_id IN (
              SELECT message_id FROM message_slots WHERE chosen_at < :before
              ORDER BY chosen_at LIMIT :batch FOR UPDATE SKIP LOCKED)""").bind("before", before).bind("batch", batch).execute());
    return Removed.ofBatch(removed, batch);
  }
}

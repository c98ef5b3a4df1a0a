package dev.tidings.queue.postgres;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * Dead letters of the queue tables expire by the time they died: long enough to be looked at and
 * replayed, not kept for good. (On RabbitMQ, a dead-letter stream is capped by size instead.)
 */
public final class DeadLetterExpiry implements Expiry {
  private final Jdbi jdbi;

  public DeadLetterExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "work_queue_dead_letter";
  }

  @Override
  public Removed removeSome(Instant before, int batch) {
    int removed = jdbi.withHandle(handle ->
        handle.createUpdate("""
            DELETE FROM work_queue_dead_letter WHERE id IN (
              SELECT id FROM work_queue_dead_letter WHERE dead_at < :before
              ORDER BY dead_at LIMIT :batch FOR UPDATE SKIP LOCKED)""").bind("before", before).bind("batch", batch).execute());
    return Removed.ofBatch(removed, batch);
  }
}

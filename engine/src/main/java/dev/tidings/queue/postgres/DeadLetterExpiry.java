package dev.tidings.queue.postgres;

import dev.tidings.storage.BatchedDelete;
import dev.tidings.storage.Expiry;
import org.jdbi.v3.core.Jdbi;

/**
 * Dead letters of the queue tables expire by the time they died: long enough to be looked at and
 * replayed, not kept for good. (On RabbitMQ, a dead-letter stream is capped by size instead.)
 */
public final class DeadLetterExpiry {
  private DeadLetterExpiry() {}

  public static Expiry of(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "work_queue_dead_letter", """
          DELETE FROM work_queue_dead_letter WHERE id IN (
            SELECT id FROM work_queue_dead_letter WHERE dead_at < :before
            ORDER BY dead_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }
}

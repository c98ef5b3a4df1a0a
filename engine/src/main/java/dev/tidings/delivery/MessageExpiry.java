package dev.tidings.delivery;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * A message expires whole once nothing has happened to it for the lifetime (its status last moved
 * before the time asked): its status row, its funnel steps and its slot clicks go in one statement.
 * The campaign's funnel counters are not touched, so the totals and rates stay as they were. A
 * receipt that still comes for an expired message finds it unknown and is parked, then dropped with
 * the parked receipts, so it never counts a step twice.
 */
public final class MessageExpiry implements Expiry {
  private final Jdbi jdbi;

  public MessageExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "message_status";
  }

  @Override
  public Removed removeSome(Instant before, int batch) {
    long removed = jdbi.withHandle(handle -> handle
        .createQuery("""
            WITH gone AS (
              DELETE FROM message_status WHERE message_id IN (
                SELECT message_id FROM message_status WHERE status_at < :before
                ORDER BY status_at LIMIT :batch FOR UPDATE SKIP LOCKED)
              RETURNING message_id),
            steps AS (
              DELETE FROM message_steps s USING gone g WHERE s.message_id = g.message_id),
            clicks AS (
              DELETE FROM slot_clicks c USING gone g WHERE c.message_id = g.message_id)
            SELECT count(*) FROM gone""")
        .bind("before", before)
        .bind("batch", batch)
        .mapTo(Long.class)
        .one());
    return Removed.ofBatch(removed, batch);
  }
}

package dev.tidings.activity;

import dev.tidings.storage.Expiry;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * Activity events expire by when they happened. What they counted stays in the month, year and
 * all-time aggregates; an event still waiting to be counted (history imported late) is kept until it
 * has been. A replay of an expired event with its id is stored again: by then its day is long out
 * of every window the recommenders read.
 */
public final class EventExpiry implements Expiry {
  private final Jdbi jdbi;

  public EventExpiry(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "activity_events";
  }

  @Override
  public Removed removeSome(Instant before, int batch) {
    int removed = jdbi.withHandle(handle ->
        handle.createUpdate("""
            DELETE FROM activity_events WHERE seq IN (
              SELECT e.seq FROM activity_events e WHERE e.occurred_at < :before
                 AND NOT EXISTS (SELECT 1 FROM aggregation_backlog b WHERE b.seq = e.seq)
               ORDER BY e.occurred_at LIMIT :batch FOR UPDATE SKIP LOCKED)""").bind("before", before).bind("batch", batch).execute());
    return Removed.ofBatch(removed, batch);
  }
}

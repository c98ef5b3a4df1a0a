package dev.tidings.activity;

import dev.tidings.storage.BatchedDelete;
import dev.tidings.storage.Expiry;
import org.jdbi.v3.core.Jdbi;

/**
 * Activity events expire by when they happened. What they counted stays in the month, year and
 * all-time aggregates; an event still waiting to be counted (history imported late) is kept until it
 * has been. A replay of an expired event with its id is stored again: by then its day is long out
 * of every window the recommenders read.
 */
public final class EventExpiry {
  private EventExpiry() {}

  public static Expiry of(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "activity_events", """
          DELETE FROM activity_events WHERE seq IN (
            SELECT e.seq FROM activity_events e WHERE e.occurred_at < :before
            AND NOT EXISTS (SELECT 1 FROM aggregation_backlog b WHERE b.seq = e.seq)
            ORDER BY e.occurred_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }
}

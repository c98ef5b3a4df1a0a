package dev.tidings.events;

import dev.tidings.storage.BatchedDelete;
import dev.tidings.storage.Expiry;
import org.jdbi.v3.core.Jdbi;

/** How the event tables lose what outlived its lifetime, oldest first, a batch at a time. */
public final class EventExpiry {
  private EventExpiry() {}

  /** Relayed events, by when they were relayed. */
  public static Expiry log(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "event_log", """
        DELETE FROM event_log WHERE position IN (
          SELECT position FROM event_log WHERE relayed_at < :before
           ORDER BY relayed_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }

  /** Listeners' marks of the events they applied, by when they applied them. */
  public static Expiry inbox(Jdbi jdbi) {
    return new BatchedDelete(jdbi, "event_inbox", """
        DELETE FROM event_inbox WHERE (listener, event_id) IN (
          SELECT listener, event_id FROM event_inbox WHERE seen_at < :before
           ORDER BY seen_at LIMIT :batch FOR UPDATE SKIP LOCKED)""");
  }
}

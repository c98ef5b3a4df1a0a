package dev.tidings.events;

import dev.tidings.events.EventListener.ReceivedEvent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/**
 * The events a listener has applied, so that a redelivered one is not applied again: marked in the
 * listener's own transaction, with what it does, so the mark and the effect commit together.
 */
public final class EventInbox {
  private EventInbox() {}

  /** Marks {@code events} seen by {@code listener}; answers those it had not seen before, in order. */
  public static List<ReceivedEvent> unseen(
      Handle handle, String listener, List<ReceivedEvent> events) {
    if (events.isEmpty()) return events;
    List<String> ids = events.stream().map(ReceivedEvent::id).toList();
    Set<String> fresh = new HashSet<>(handle
        .createQuery("""
            INSERT INTO event_inbox (listener, event_id)
            SELECT :listener, id FROM unnest(:ids) AS i (id) ORDER BY id
            ON CONFLICT DO NOTHING
            RETURNING event_id""")
        .bind("listener", listener)
        .bindArray("ids", String.class, ids)
        .mapTo(String.class)
        .list());
    if (fresh.size() == events.size()) return events;
    return events.stream().filter(event -> fresh.remove(event.id())).toList();
  }
}

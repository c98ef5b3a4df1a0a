package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityBacklog;
import dev.tidings.activity.ActivityBacklog.SessionEvent;
import dev.tidings.activity.StoredEvent;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The sessions of a batch of stored events, as read from the events table, answering for each event
 * which items its session held before it. Pairs follow stored order, so whichever batch or node counts
 * an event, it pairs with the same items; a session past {@link ActivityBacklog#MAX_SESSION_EVENTS}
 * events (a crawler's, an import's catch-all) pairs no more.
 */
final class SessionHistory {
  /** Partners of one item within one session: beyond a few dozen, pairs say little and cost much. */
  static final int MAX_PARTNERS = 50;

  private final Map<String, List<SessionEvent>> sessions;

  SessionHistory(Map<String, List<SessionEvent>> sessions) {
    this.sessions = sessions;
  }

  SessionPartners partnersOf(StoredEvent stored) {
    var session = stored.event().sessionId().map(sessions::get).orElse(null);
    if (session == null || session.isEmpty()) return SessionPartners.NONE;
    if (session.size() >= ActivityBacklog.MAX_SESSION_EVENTS
        && stored.seq() > session.getLast().seq()) return SessionPartners.NONE;
    String item = stored.event().itemId();
    return types -> {
      var partners = new LinkedHashSet<String>();
      for (SessionEvent earlier : session) {
        if (earlier.seq() >= stored.seq()) break;
        if (!types.contains(earlier.type())) continue;
        if (earlier.itemId().equals(item)) return List.of();
        if (partners.size() < MAX_PARTNERS) partners.add(earlier.itemId());
      }
      return List.copyOf(partners);
    };
  }
}

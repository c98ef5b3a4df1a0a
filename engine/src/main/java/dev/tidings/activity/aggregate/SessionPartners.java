package dev.tidings.activity.aggregate;

import dev.tidings.activity.EventType;
import java.util.List;
import java.util.Set;

/**
 * The items an event's session held before it, for aggregations that count items seen together. An
 * item is paired once per session: with the distinct items before its first occurrence there, and
 * never again when it comes back (a second view of the same product in a visit adds no pair).
 */
@FunctionalInterface
public interface SessionPartners {
  SessionPartners NONE = types -> List.of();

  /**
   * The distinct items of this event's session that came before it among events of {@code types};
   * empty when the event has no session, or its item was in the session before.
   */
  List<String> before(Set<EventType> types);
}

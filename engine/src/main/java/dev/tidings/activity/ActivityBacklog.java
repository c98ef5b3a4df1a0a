package dev.tidings.activity;

import dev.tidings.Json;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;

/**
 * The stored events that the aggregation has not counted yet ({@code aggregation_backlog}, filled by a
 * trigger whichever way an event came in) and the sessions they belong to. Claiming deletes the
 * entries in the caller's transaction: the caller counts them in the same transaction, so an event
 * is counted when that commits, and is claimable again when it rolls back.
 */
public final class ActivityBacklog {
  private static final TypeReference<Map<String, String>> ATTRIBUTES = new TypeReference<>() {};

  /** Items of one session kept for pairing: a visit rarely holds more, a crawler's holds thousands. */
  public static final int MAX_SESSION_EVENTS = 200;

  private ActivityBacklog() {}

  /**
   * Takes up to {@code max} of the oldest waiting events, skipping those another transaction holds, in
   * stored order.
   */
  public static List<StoredEvent> claim(Handle handle, int max) {
    return handle
        .createQuery("""
            WITH claimed AS (
              DELETE FROM aggregation_backlog WHERE seq IN (
                SELECT seq FROM aggregation_backlog ORDER BY seq LIMIT :max FOR UPDATE SKIP LOCKED)
              RETURNING seq)
            SELECT e.seq, e.event_id, e.user_id, e.type, e.item_id, e.occurred_at, e.quantity,
                   e.price, e.session_id, e.attributes::text AS attributes
              FROM activity_events e JOIN claimed USING (seq)
             ORDER BY e.seq""")
        .bind("max", max)
        .map((rows, context) -> new StoredEvent(rows.getLong("seq"), event(rows)))
        .list();
  }

  /**
   * Stored events from {@code afterSeq} (exclusive) on that are not waiting in the backlog (counted
   * already), up to {@code max}, in stored order: what a rebuild of an aggregation counts again.
   */
  public static List<StoredEvent> counted(Handle handle, long afterSeq, int max) {
    return handle
        .createQuery("""
            SELECT e.seq, e.event_id, e.user_id, e.type, e.item_id, e.occurred_at, e.quantity,
                   e.price, e.session_id, e.attributes::text AS attributes
              FROM activity_events e
             WHERE e.seq > :after
               AND NOT EXISTS (SELECT 1 FROM aggregation_backlog b WHERE b.seq = e.seq)
             ORDER BY e.seq LIMIT :max""")
        .bind("after", afterSeq)
        .bind("max", max)
        .map((rows, context) -> new StoredEvent(rows.getLong("seq"), event(rows)))
        .list();
  }

  /** Events waiting to be counted. */
  public static long waiting(Handle handle) {
    return handle
        .createQuery("SELECT count(*) FROM aggregation_backlog")
        .mapTo(Long.class)
        .one();
  }

  /** When the oldest event still waiting to be counted arrived; empty when none waits. */
  public static Optional<Instant> oldestWaiting(Handle handle) {
    return handle.createQuery("""
            SELECT e.received_at FROM activity_events e
             WHERE e.seq = (SELECT min(seq) FROM aggregation_backlog)""").mapTo(Instant.class).findOne();
  }

  /** One event of a session: enough to pair its item with the others. */
  public record SessionEvent(long seq, EventType type, String itemId) {}

  /** The first {@link #MAX_SESSION_EVENTS} events of each session, in stored order. */
  public static Map<String, List<SessionEvent>> sessions(
      Handle handle, Collection<String> sessionIds) {
    var sessions = new HashMap<String, List<SessionEvent>>();
    if (sessionIds.isEmpty()) return sessions;
    handle
        .createQuery("""
            SELECT s.session_id, e.seq, e.type, e.item_id
              FROM unnest(:sessions::text[]) AS s (session_id)
              CROSS JOIN LATERAL (
                SELECT seq, type, item_id FROM activity_events
                 WHERE session_id = s.session_id ORDER BY seq LIMIT :max) e
             ORDER BY s.session_id, e.seq""")
        .bindArray("sessions", String.class, sessionIds)
        .bind("max", MAX_SESSION_EVENTS)
        .map((rows, context) -> Map.entry(
            rows.getString(1),
            new SessionEvent(rows.getLong(2), type(rows.getString(3)), rows.getString(4))))
        .forEach(row ->
            sessions.computeIfAbsent(row.getKey(), id -> new ArrayList<>()).add(row.getValue()));
    return sessions;
  }

  static ActivityEvent event(ResultSet rows) throws SQLException {
    BigDecimal price = rows.getBigDecimal("price");
    String attributes = rows.getString("attributes");
    return new ActivityEvent(
        Optional.ofNullable(rows.getString("event_id")),
        rows.getString("user_id"),
        type(rows.getString("type")),
        rows.getString("item_id"),
        rows.getTimestamp("occurred_at").toInstant(),
        rows.getInt("quantity"),
        Optional.ofNullable(price),
        Optional.ofNullable(rows.getString("session_id")),
        attributes(attributes));
  }

  private static Map<String, String> attributes(@Nullable String json) {
    return json == null ? Map.of() : Json.MAPPER.readValue(json, ATTRIBUTES);
  }

  private static EventType type(String wire) {
    return EventType.ofWire(wire)
        .orElseThrow(() -> new IllegalStateException("unknown event type in the table: " + wire));
  }
}

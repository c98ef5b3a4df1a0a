package dev.tidings.activity;

import dev.tidings.Json;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of {@code activity_events} (V1__catalog_audience_activity.sql). Every way in stores an event the
 * same way: an event id already in the table, or earlier in the same statement, is a replay and is skipped,
 * so the first occurrence stays and the number of rows written tells the duplicates apart.
 */
final class EventTable {
  static final String NAME = "activity_events";

  /** The columns the intake writes; {@code seq} numbers them in the order they are inserted. */
  static final String COLUMNS =
      "event_id, user_id, type, item_id, occurred_at, quantity, price, received_at, session_id, attributes";

  static final String COLUMN_TYPES = """
      event_id text, user_id text NOT NULL, type text NOT NULL, item_id text NOT NULL,
      occurred_at timestamptz NOT NULL, quantity integer NOT NULL, price numeric, received_at timestamptz NOT NULL,
      session_id text, attributes jsonb""";

  private static final String SKIP_REPLAYS =
      "ON CONFLICT (event_id) WHERE event_id IS NOT NULL DO NOTHING";

  /**
   * One statement for any number of events: one array per column, so the statement text and its plan stay
   * the same whatever the batch size. Rows are inserted in event id order (the first occurrence of an id
   * first): concurrent requests of one batch each that share ids (a client's retry, overlapping producers)
   * then wait on each other's ids in the same order, so they cannot deadlock.
   */
  private static final String INSERT_BATCH = """
      INSERT INTO %s (%s)
      SELECT event_id, user_id, type, item_id, occurred_at, quantity, price, :receivedAt, session_id,
             attributes
        FROM unnest(:eventIds::text[], :userIds::text[], :types::text[], :itemIds::text[],
                    :occurredAt::timestamptz[], :quantities::integer[], :prices::numeric[],
                    :sessionIds::text[], :attributes::jsonb[])
             WITH ORDINALITY AS e (event_id, user_id, type, item_id, occurred_at, quantity, price,
                                   session_id, attributes, position)
       ORDER BY event_id COLLATE "C", position
      %s""".formatted(NAME, COLUMNS, SKIP_REPLAYS);

  /**
   * {@link #INSERT_BATCH}, telling each event stored (not the replays) as accepted in the same statement:
   * no transaction of its own, one outbox row for the batch.
   */
  private static final String INSERT_BATCH_TELLING = """
      WITH stored AS (%s RETURNING event_id, user_id, type, item_id, quantity, occurred_at)
      SELECT count(*) FROM stored, (
        SELECT event_outbox_append_columns('dev.tidings.activity.accepted', 'subscriberId',
                 json_build_object(
                   'eventId', json_agg(event_id), 'subscriberId', json_agg(user_id),
                   'activity', json_agg(type), 'itemId', json_agg(item_id),
                   'quantity', json_agg(quantity), 'time', json_agg(occurred_at)))
          FROM stored) AS told""".formatted(INSERT_BATCH);

  private EventTable() {}

  /**
   * Inserts {@code events} in one statement, telling them as accepted when {@code tell}; returns how
   * many were stored (the rest were replays).
   */
  static int insert(Handle handle, List<ActivityEvent> events, Instant receivedAt, boolean tell) {
    if (!tell)
      return bind(handle.createUpdate(INSERT_BATCH), events, receivedAt).execute();
    return bind(handle.createQuery(INSERT_BATCH_TELLING), events, receivedAt)
        .mapTo(Integer.class)
        .one();
  }

  /**
   * Inserts {@code events} in one statement and returns those stored (every event without an id, and
   * the first occurrence of each id not seen before), as stored, with their {@code seq}.
   */
  static List<StoredEvent> insertReturningStored(
      Handle handle, List<ActivityEvent> events, Instant receivedAt) {
    return bind(
            handle.createQuery(INSERT_BATCH + " RETURNING seq, event_id, user_id, type, item_id,"
                + " occurred_at, quantity, price, session_id, attributes::text AS attributes"),
            events,
            receivedAt)
        .map((rows, context) -> new StoredEvent(rows.getLong("seq"), ActivityBacklog.event(rows)))
        .list();
  }

  private static <S extends SqlStatement<S>> S bind(
      S statement, List<ActivityEvent> events, Instant receivedAt) {
    int size = events.size();
    @Nullable String[] eventIds = new String[size];
    var userIds = new String[size];
    var types = new String[size];
    var itemIds = new String[size];
    var occurredAt = new String[size];
    var quantities = new Integer[size];
    @Nullable String[] prices = new String[size];
    @Nullable String[] sessionIds = new String[size];
    @Nullable String[] attributes = new String[size];
    for (int i = 0; i < size; i++) {
      ActivityEvent event = events.get(i);
      eventIds[i] = event.eventId().orElse(null);
      userIds[i] = event.userId();
      types[i] = event.type().wire();
      itemIds[i] = event.itemId();
      occurredAt[i] = event.timestamp().toString();
      quantities[i] = event.quantity();
      prices[i] = event.price().map(BigDecimal::toPlainString).orElse(null);
      sessionIds[i] = event.sessionId().orElse(null);
      attributes[i] = attributesJson(event);
    }
    return statement
        .bindArray("eventIds", String.class, (Object[]) eventIds)
        .bindArray("userIds", String.class, (Object[]) userIds)
        .bindArray("types", String.class, (Object[]) types)
        .bindArray("itemIds", String.class, (Object[]) itemIds)
        .bindArray("occurredAt", String.class, (Object[]) occurredAt)
        .bindArray("quantities", Integer.class, (Object[]) quantities)
        .bindArray("prices", String.class, (Object[]) prices)
        .bindArray("sessionIds", String.class, (Object[]) sessionIds)
        .bindArray("attributes", String.class, (Object[]) attributes)
        .bind("receivedAt", receivedAt);
  }

  /**
   * Appends the valid rows of an import's chunk table in line order, so the first occurrence of an id in
   * the file stays; returns how many were stored.
   */
  static int insertStaged(Handle handle, String chunkTable, Instant receivedAt) {
    return handle
        .createUpdate("""
            INSERT INTO %s (%s)
            SELECT event_id, user_id, type, item_id, occurred_at, quantity, price, :receivedAt,
                   session_id, attributes
              FROM %s WHERE problem IS NULL
             ORDER BY line
            %s""".formatted(NAME, COLUMNS, chunkTable, SKIP_REPLAYS))
        .bind("receivedAt", receivedAt)
        .execute();
  }

  /** The attributes as a JSON object, or null when there are none (most events). */
  static @Nullable String attributesJson(ActivityEvent event) {
    return event.attributes().isEmpty() ? null : Json.MAPPER.writeValueAsString(event.attributes());
  }

  private static final String TASTE_TYPES = "('view', 'click', 'add_to_cart', 'purchase')";

  /** Must run in a transaction: the timeout is set for it alone. */
  static List<ActivityHistory.PastEvent> recentOfUser(
      Handle handle, String userId, Instant since, int limit, Duration timeout) {
    long millis = Math.max(1, timeout.toMillis());
    handle.execute("SET LOCAL statement_timeout = " + millis);
    return handle
        .createQuery("SELECT item_id, type, occurred_at FROM " + NAME
            + " WHERE user_id = :userId AND occurred_at >= :since AND type IN " + TASTE_TYPES
            + " ORDER BY occurred_at DESC LIMIT :limit")
        .bind("userId", userId)
        .bind("since", since)
        .bind("limit", limit)
        .map((rs, ctx) -> new ActivityHistory.PastEvent(
            rs.getString("item_id"),
            type(rs.getString("type")),
            rs.getTimestamp("occurred_at").toInstant()))
        .list();
  }

  static List<ActivityHistory.PastEvent> latestOfUser(
      Handle handle, String userId, int limit, Duration timeout) {
    long millis = Math.max(1, timeout.toMillis());
    handle.execute("SET LOCAL statement_timeout = " + millis);
    return handle
        .createQuery("SELECT item_id, type, occurred_at FROM " + NAME
            + " WHERE user_id = :userId ORDER BY occurred_at DESC LIMIT :limit")
        .bind("userId", userId)
        .bind("limit", limit)
        .map((rs, ctx) -> new ActivityHistory.PastEvent(
            rs.getString("item_id"),
            type(rs.getString("type")),
            rs.getTimestamp("occurred_at").toInstant()))
        .list();
  }

  static Map<String, List<ActivityHistory.PastEvent>> recentOfUsers(
      Handle handle, Collection<String> userIds, Instant since, int limit, Duration timeout) {
    long millis = Math.max(1, timeout.toMillis());
    handle.execute("SET LOCAL statement_timeout = " + millis);
    Map<String, List<ActivityHistory.PastEvent>> found = new HashMap<>();
    handle
        .createQuery("SELECT u.user_id, e.item_id, e.type, e.occurred_at"
            + " FROM unnest(:users) AS u(user_id) CROSS JOIN LATERAL ("
            + " SELECT item_id, type, occurred_at FROM " + NAME
            + " WHERE user_id = u.user_id AND occurred_at >= :since AND type IN " + TASTE_TYPES
            + " ORDER BY occurred_at DESC LIMIT :limit) e"
            + " ORDER BY u.user_id, e.occurred_at DESC")
        .bindArray("users", String.class, userIds)
        .bind("since", since)
        .bind("limit", limit)
        .map((rs, ctx) -> Map.entry(
            rs.getString("user_id"),
            new ActivityHistory.PastEvent(
                rs.getString("item_id"),
                type(rs.getString("type")),
                rs.getTimestamp("occurred_at").toInstant())))
        .forEach(row ->
            found.computeIfAbsent(row.getKey(), user -> new ArrayList<>()).add(row.getValue()));
    return found;
  }

  static List<ActivityHistory.ItemCount> countsSince(Handle handle, Instant since) {
    return handle
        .createQuery("SELECT item_id, type, count(*) AS events FROM " + NAME
            + " WHERE occurred_at >= :since AND type IN " + TASTE_TYPES + " GROUP BY item_id, type")
        .bind("since", since)
        .map((rs, ctx) -> new ActivityHistory.ItemCount(
            rs.getString("item_id"), type(rs.getString("type")), rs.getLong("events")))
        .list();
  }

  static List<String> lastDoneWithin(
      Handle handle, EventType type, Instant from, Instant to, Optional<String> after, int limit) {
    return handle
        .createQuery("SELECT DISTINCT e.user_id FROM " + NAME + " e"
            + " WHERE e.type = :type AND e.occurred_at >= :from AND e.occurred_at < :to"
            + " AND (:after::text IS NULL OR e.user_id > :after)"
            + " AND NOT EXISTS (SELECT 1 FROM " + NAME + " later WHERE later.user_id = e.user_id"
            + " AND later.type = :type AND later.occurred_at >= :to)"
            + " ORDER BY e.user_id LIMIT :limit")
        .bind("type", type.wire())
        .bind("from", from)
        .bind("to", to)
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .mapTo(String.class)
        .list();
  }

  private static EventType type(String wire) {
    return EventType.ofWire(wire)
        .orElseThrow(() -> new IllegalStateException("unknown event type in the table: " + wire));
  }

  static long count(Handle handle) {
    return handle.createQuery("SELECT count(*) FROM " + NAME).mapTo(Long.class).one();
  }
}

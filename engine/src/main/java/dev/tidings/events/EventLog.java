package dev.tidings.events;

import dev.tidings.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Reads the relayed events in the order of their positions, for a shop's systems that read from any
 * offset ({@code GET /api/v1/events?after=}). The relay commits positions in order, so a reader that
 * asks for what comes after the last position it saw never skips an event that commits later.
 */
public final class EventLog {
  /** The most events one read answers. */
  public static final int MAX_LIMIT = 1000;

  private final Jdbi jdbi;

  public EventLog(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /**
   * Up to {@code limit} events past {@code position}, oldest first; only those of {@code types} unless
   * it is empty.
   *
   * @throws IllegalArgumentException when {@code position} is negative or {@code limit} is not within
   *     1..{@link #MAX_LIMIT}
   */
  public List<CloudEvent> after(long position, int limit, Set<CloudEventType> types) {
    if (position < 0)
      throw new IllegalArgumentException("position must be 0 or more, got " + position);
    if (limit < 1 || limit > MAX_LIMIT)
      throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
    List<String> names = types.stream().map(CloudEventType::typeName).sorted().toList();
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT position, id, type, subject, occurred, CAST(data AS text) AS data
              FROM event_log
             WHERE position > :after
               AND (CAST(:all AS boolean) OR type = ANY(:types))
             ORDER BY position
             LIMIT :limit""")
        .bind("after", position)
        .bind("all", names.isEmpty())
        .bindArray("types", String.class, names)
        .bind("limit", limit)
        .map((rows, context) -> row(rows))
        .list());
  }

  /** A row of {@code event_log} (position, id, type, subject, occurred, data as text) as its event. */
  static CloudEvent row(ResultSet rows) throws SQLException {
    String type = rows.getString("type");
    return new CloudEvent(
        rows.getString("id"),
        rows.getLong("position"),
        CloudEventType.named(type)
            .orElseThrow(() ->
                new IllegalStateException("the event log holds an event of unknown type " + type)),
        rows.getString("subject"),
        rows.getTimestamp("occurred").toInstant(),
        Json.MAPPER.readTree(rows.getString("data")));
  }
}

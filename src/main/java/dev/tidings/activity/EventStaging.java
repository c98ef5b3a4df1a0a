package dev.tidings.activity;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * Events staged by COPY and appended in file order. An event id seen before (in the database or earlier in
 * the file) is skipped: replays are normal, so they are not errors, and the first occurrence stays.
 */
final class EventStaging implements Staging<ActivityEvent> {
  @Override
  public String table() {
    return "activity_events";
  }

  @Override
  public String columns() {
    return """
        event_id text, user_id text NOT NULL, type text NOT NULL, item_id text NOT NULL,
        occurred_at timestamptz NOT NULL, quantity integer NOT NULL, price numeric, received_at timestamptz NOT NULL""";
  }

  @Override
  public String copyColumns() {
    return "event_id, user_id, type, item_id, occurred_at, quantity, price, received_at";
  }

  @Override
  public void write(ActivityEvent e, Instant now, CopyRowWriter out) throws IOException {
    out.text(e.eventId().orElse(null))
        .text(e.userId())
        .text(e.type().wire())
        .text(e.itemId())
        .instant(e.timestamp())
        .number(e.quantity())
        .decimal(e.price().orElse(null))
        .instant(now);
  }

  /** Every event is appended; replays are told apart by the event id's unique index, not by a last-wins key. */
  @Override
  public @Nullable String key(ActivityEvent e) {
    return null;
  }

  /** Chunks arrive in file order and each is inserted in line order, so the first occurrence of an id stays. */
  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    long valid = handle
        .createQuery("SELECT count(*) FROM " + table + " WHERE problem IS NULL")
        .mapTo(Long.class)
        .one();
    int inserted = handle.createUpdate("""
        INSERT INTO activity_events (event_id, user_id, type, item_id, occurred_at, quantity, price, received_at)
        SELECT event_id, user_id, type, item_id, occurred_at, quantity, price, :now
          FROM %s WHERE problem IS NULL
         ORDER BY line
        ON CONFLICT (event_id) WHERE event_id IS NOT NULL DO NOTHING""".formatted(table)).bind("now", now).execute();
    return valid - inserted;
  }
}

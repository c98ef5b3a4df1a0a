package dev.tidings.activity;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Events staged by COPY and appended in file order. An event id seen before (in the database or earlier in
 * the file) is skipped: replays are normal, so they are not errors, and the first occurrence stays.
 */
final class EventStaging implements Staging<ActivityEvent> {
  @Override
  public String createTable() {
    return """
        CREATE TEMP TABLE import_stage (
          line bigint NOT NULL, problem text, event_id text, user_id text NOT NULL, type text NOT NULL,
          item_id text NOT NULL, occurred_at timestamptz NOT NULL, quantity integer NOT NULL, price numeric
        ) ON COMMIT DROP""";
  }

  @Override
  public String copy() {
    return "COPY import_stage (line, event_id, user_id, type, item_id, occurred_at, quantity, price) FROM STDIN";
  }

  @Override
  public void write(ActivityEvent e, long line, CopyRowWriter out) throws IOException {
    out.number(line).text(e.eventId().orElse(null)).text(e.userId()).text(e.type().wire()).text(e.itemId())
        .instant(e.timestamp()).number(e.quantity()).decimal(e.price().orElse(null));
  }

  @Override
  public long merge(Handle handle, Instant now) {
    long valid = handle.createQuery("SELECT count(*) FROM import_stage WHERE problem IS NULL").mapTo(Long.class).one();
    int inserted = handle.createUpdate("""
        INSERT INTO activity_events (event_id, user_id, type, item_id, occurred_at, quantity, price, received_at)
        SELECT event_id, user_id, type, item_id, occurred_at, quantity, price, :now
          FROM import_stage WHERE problem IS NULL
         ORDER BY line
        ON CONFLICT (event_id) WHERE event_id IS NOT NULL DO NOTHING""")
        .bind("now", now)
        .execute();
    return valid - inserted;
  }
}

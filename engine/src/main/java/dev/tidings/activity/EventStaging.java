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
    return EventTable.NAME;
  }

  @Override
  public String columns() {
    return EventTable.COLUMN_TYPES;
  }

  @Override
  public String copyColumns() {
    return EventTable.COLUMNS;
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
        .instant(now)
        .text(e.sessionId().orElse(null))
        .text(EventTable.attributesJson(e));
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
    return valid - EventTable.insertStaged(handle, table, now);
  }
}

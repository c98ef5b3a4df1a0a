package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/** Follows in a bulk import: a follow of a subscriber that does not exist is refused, the last row of a pair wins. */
final class FollowStaging implements Staging<Follow> {
  @Override
  public String table() {
    return FollowTable.NAME;
  }

  @Override
  public String columns() {
    return FollowTable.CHUNK_COLUMNS;
  }

  @Override
  public String copyColumns() {
    return FollowTable.COLUMNS;
  }

  @Override
  public void write(Follow f, Instant now, CopyRowWriter out) throws IOException {
    FollowTable.copyRow(f, out);
  }

  @Override
  public String key(Follow f) {
    return f.subscriberId()
        + '\u0000'
        + f.target().type().wire()
        + '\u0000'
        + f.target().id();
  }

  @Override
  public void check(Handle handle, String table) {
    handle.execute("""
        UPDATE %s s SET problem = format('subscriber %%s does not exist', s.subscriber_id)
         WHERE NOT EXISTS (SELECT 1 FROM subscribers t WHERE t.id = s.subscriber_id)""".formatted(table));
  }

  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    FollowTable.mergeChunk(handle, table, duplicateKeys);
    return 0;
  }
}

package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/** Follows staged by COPY; a follow of a subscriber that does not exist is refused, the last row of a pair wins. */
final class FollowStaging implements Staging<Follow> {
  @Override
  public String table() {
    return "follows";
  }

  @Override
  public String columns() {
    return "subscriber_id text NOT NULL, target_type text NOT NULL, target_id text NOT NULL, followed_at timestamptz NOT NULL";
  }

  @Override
  public String copyColumns() {
    return "subscriber_id, target_type, target_id, followed_at";
  }

  @Override
  public void write(Follow f, Instant now, CopyRowWriter out) throws IOException {
    out.text(f.subscriberId())
        .text(f.target().type().wire())
        .text(f.target().id())
        .instant(f.followedAt());
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
    String rows = duplicateKeys ? "DISTINCT ON (subscriber_id, target_type, target_id)" : "";
    String order = duplicateKeys ? "ORDER BY subscriber_id, target_type, target_id, line DESC" : "";
    handle.execute("""
        INSERT INTO follows (subscriber_id, target_type, target_id, followed_at)
        SELECT %s subscriber_id, target_type, target_id, followed_at
          FROM %s WHERE problem IS NULL
         %s
        ON CONFLICT (subscriber_id, target_type, target_id) DO UPDATE SET followed_at = excluded.followed_at""".formatted(rows, table, order));
    return 0;
  }
}

package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/** Follows staged by COPY; a follow of a subscriber that does not exist is refused, the last row of a pair wins. */
final class FollowStaging implements Staging<Follow> {
  @Override
  public String createTable() {
    return """
        CREATE TEMP TABLE import_stage (
          line bigint NOT NULL, problem text, subscriber_id text NOT NULL, target_type text NOT NULL,
          target_id text NOT NULL, followed_at timestamptz NOT NULL
        ) ON COMMIT DROP""";
  }

  @Override
  public String copy() {
    return "COPY import_stage (line, subscriber_id, target_type, target_id, followed_at) FROM STDIN";
  }

  @Override
  public void write(Follow f, long line, CopyRowWriter out) throws IOException {
    out.number(line).text(f.subscriberId()).text(f.target().type().wire()).text(f.target().id()).instant(f.followedAt());
  }

  @Override
  public void check(Handle handle) {
    handle.execute("""
        UPDATE import_stage s SET problem = format('subscriber %s does not exist', s.subscriber_id)
         WHERE NOT EXISTS (SELECT 1 FROM subscribers t WHERE t.id = s.subscriber_id)""");
  }

  @Override
  public long merge(Handle handle, Instant now) {
    handle.execute("""
        INSERT INTO follows (subscriber_id, target_type, target_id, followed_at)
        SELECT DISTINCT ON (subscriber_id, target_type, target_id) subscriber_id, target_type, target_id, followed_at
          FROM import_stage WHERE problem IS NULL
         ORDER BY subscriber_id, target_type, target_id, line DESC
        ON CONFLICT (subscriber_id, target_type, target_id) DO UPDATE SET followed_at = excluded.followed_at""");
    return 0;
  }
}

package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Subscribers in a bulk import, staged by COPY chunk by chunk and merged by the table's upsert. Before a
 * chunk's merge, rows whose email belongs to another subscriber (in the database, or on an earlier line of the
 * file under another id) are refused; then the last row of each id wins.
 */
final class SubscriberStaging implements Staging<Subscriber> {
  @Override
  public String table() {
    return SubscriberTable.NAME;
  }

  @Override
  public String columns() {
    return SubscriberTable.CHUNK_COLUMNS;
  }

  @Override
  public String copyColumns() {
    return SubscriberTable.COLUMNS;
  }

  @Override
  public void write(Subscriber s, Instant now, CopyRowWriter out) throws IOException {
    SubscriberTable.copyRow(s, now, out);
  }

  @Override
  public String key(Subscriber s) {
    return s.id();
  }

  /**
   * An email's owner is the subscriber that has it in the database (which includes the earlier chunks of this
   * file, merged already), or else the id of the chunk's first line that uses it; any other id's row with that
   * email is refused. The owner is looked up with one probe of the lower(email) index per row (LATERAL ...
   * LIMIT 1 keeps the planner from hashing the whole, growing subscribers table for every chunk).
   */
  @Override
  public void check(Handle handle, String table) {
    handle.execute("""
        UPDATE %1$s s SET problem = c.problem
          FROM (
            SELECT d.line,
                   CASE WHEN t.id IS NOT NULL THEN format('email %%s already belongs to subscriber %%s', d.email, t.id)
                        ELSE format('email %%s is already used by subscriber %%s on line %%s', d.email, f.id, f.line)
                   END AS problem
              FROM %1$s d
              LEFT JOIN LATERAL (SELECT o.id FROM subscribers o WHERE lower(o.email) = lower(d.email) LIMIT 1) t ON true
              LEFT JOIN (SELECT DISTINCT ON (lower(e.email)) lower(e.email) AS key, e.id, e.line
                           FROM %1$s e
                          WHERE lower(e.email) IN (SELECT lower(email) FROM %1$s GROUP BY lower(email)
                                                    HAVING min(id) <> max(id))
                          ORDER BY lower(e.email), e.line) f ON f.key = lower(d.email)
             WHERE (t.id IS NOT NULL AND t.id <> d.id) OR (t.id IS NULL AND f.id IS NOT NULL AND f.id <> d.id)
          ) c
         WHERE s.line = c.line""".formatted(table));
  }

  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    SubscriberTable.mergeChunk(handle, table, duplicateKeys, now);
    return 0;
  }
}

package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Subscribers staged by COPY, chunk by chunk. Before a chunk's merge, rows whose email belongs to another
 * subscriber (in the database, or on an earlier line of the file under another id) are refused; then the last
 * row of each id wins.
 */
final class SubscriberStaging implements Staging<Subscriber> {
  @Override
  public String table() {
    return "subscribers";
  }

  @Override
  public String columns() {
    return """
        id text NOT NULL, email text NOT NULL, name text, locale text NOT NULL, time_zone text NOT NULL,
        latitude double precision, longitude double precision, city text, country text, consent text NOT NULL,
        created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL""";
  }

  @Override
  public String copyColumns() {
    return "id, email, name, locale, time_zone, latitude, longitude, city, country, consent, created_at, updated_at";
  }

  @Override
  public void write(Subscriber s, Instant now, CopyRowWriter out) throws IOException {
    var location = s.location();
    var point = location.flatMap(Location::point);
    out.text(s.id())
        .text(s.email())
        .text(s.name().orElse(null))
        .text(s.locale().toLanguageTag())
        .text(s.timeZone().getId())
        .nullableDouble(point.map(GeoPoint::latitude).orElse(null))
        .nullableDouble(point.map(GeoPoint::longitude).orElse(null))
        .text(location.flatMap(Location::city).orElse(null))
        .text(location.flatMap(Location::country).orElse(null))
        .text(s.consent().wire())
        .instant(now)
        .instant(now);
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
    String rows = duplicateKeys ? "DISTINCT ON (id)" : "";
    String order = duplicateKeys ? "ORDER BY id, line DESC" : "";
    handle.createUpdate("""
        INSERT INTO subscribers AS t (id, email, name, locale, time_zone, latitude, longitude, city, country, consent,
                                      created_at, updated_at)
        SELECT %s id, email, name, locale, time_zone, latitude, longitude, city, country, consent, :now, :now
          FROM %s WHERE problem IS NULL
         %s
        ON CONFLICT (id) DO UPDATE SET email = excluded.email, name = excluded.name, locale = excluded.locale,
               time_zone = excluded.time_zone, latitude = excluded.latitude, longitude = excluded.longitude,
               city = excluded.city, country = excluded.country, consent = excluded.consent,
               updated_at = excluded.updated_at""".formatted(rows, table, order)).bind("now", now).execute();
    return 0;
  }
}

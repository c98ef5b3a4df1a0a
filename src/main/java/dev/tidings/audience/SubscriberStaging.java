package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Subscribers staged by COPY. Before the merge, rows whose email belongs to another subscriber (in the
 * database, or on an earlier line of the file under another id) are refused; then the last row of each id wins.
 */
final class SubscriberStaging implements Staging<Subscriber> {
  @Override
  public String createTable() {
    return """
        CREATE TEMP TABLE import_stage (
          line bigint NOT NULL, problem text, id text NOT NULL, email text NOT NULL, name text, locale text NOT NULL,
          time_zone text NOT NULL, latitude double precision, longitude double precision, city text, country text,
          consent text NOT NULL
        ) ON COMMIT DROP""";
  }

  @Override
  public String copy() {
    return "COPY import_stage (line, id, email, name, locale, time_zone, latitude, longitude, city, country, consent)"
        + " FROM STDIN";
  }

  @Override
  public void write(Subscriber s, long line, CopyRowWriter out) throws IOException {
    var location = s.location();
    var point = location.flatMap(Location::point);
    out.number(line).text(s.id()).text(s.email()).text(s.name().orElse(null)).text(s.locale().toLanguageTag())
        .text(s.timeZone().getId())
        .nullableDouble(point.map(GeoPoint::latitude).orElse(null))
        .nullableDouble(point.map(GeoPoint::longitude).orElse(null))
        .text(location.flatMap(Location::city).orElse(null))
        .text(location.flatMap(Location::country).orElse(null))
        .text(s.consent().wire());
  }

  /**
   * An email's owner is the subscriber that has it in the database, or else the id of the first line of the
   * file that uses it; any other id's row with that email is refused.
   */
  @Override
  public void check(Handle handle) {
    handle.execute("""
        UPDATE import_stage s SET problem = c.problem
          FROM (
            SELECT d.line,
                   CASE WHEN t.id IS NOT NULL THEN format('email %s already belongs to subscriber %s', d.email, t.id)
                        ELSE format('email %s is already used by subscriber %s on line %s', d.email, f.id, f.line)
                   END AS problem
              FROM import_stage d
              LEFT JOIN subscribers t ON lower(t.email) = lower(d.email)
              LEFT JOIN (SELECT DISTINCT ON (lower(e.email)) lower(e.email) AS key, e.id, e.line
                           FROM import_stage e
                          WHERE lower(e.email) IN (SELECT lower(email) FROM import_stage GROUP BY lower(email)
                                                    HAVING min(id) <> max(id))
                          ORDER BY lower(e.email), e.line) f ON f.key = lower(d.email)
             WHERE (t.id IS NOT NULL AND t.id <> d.id) OR (t.id IS NULL AND f.id IS NOT NULL AND f.id <> d.id)
          ) c
         WHERE s.line = c.line""");
  }

  @Override
  public long merge(Handle handle, Instant now) {
    handle.createUpdate("""
        INSERT INTO subscribers AS t (id, email, name, locale, time_zone, latitude, longitude, city, country, consent,
                                      created_at, updated_at)
        SELECT DISTINCT ON (id) id, email, name, locale, time_zone, latitude, longitude, city, country, consent, :now, :now
          FROM import_stage WHERE problem IS NULL
         ORDER BY id, line DESC
        ON CONFLICT (id) DO UPDATE SET email = excluded.email, name = excluded.name, locale = excluded.locale,
               time_zone = excluded.time_zone, latitude = excluded.latitude, longitude = excluded.longitude,
               city = excluded.city, country = excluded.country, consent = excluded.consent,
               updated_at = excluded.updated_at""")
        .bind("now", now)
        .execute();
    return 0;
  }
}

package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.storage.StoredRows;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;

/**
 * The SQL of the {@code subscribers} table (V1__catalog_audience_activity.sql): its columns, how a row becomes
 * a {@link Subscriber} and back, and the upsert that single writes and bulk imports share. An email belongs to
 * one subscriber: the unique index {@value #EMAIL_KEY} on {@code lower(email)} decides, in the writing
 * statement itself. Statements run on the caller's handle, so the caller decides the transaction.
 */
final class SubscriberTable {
  static final String NAME = "subscribers";
  static final String EMAIL_KEY = "subscribers_email_key";

  /** The columns every write sets, in the order of {@link #copyRow}. */
  static final String COLUMNS =
      "id, email, name, locale, time_zone, latitude, longitude, city, country, consent, created_at, updated_at,"
          + " market";

  /**
   * A chunk table's columns for a bulk import: the written columns without the table's constraints, so that
   * every row arrives and the checks and the merge decide.
   */
  static final String CHUNK_COLUMNS = """
      id text NOT NULL, email text NOT NULL, name text, locale text NOT NULL, time_zone text NOT NULL,
      latitude double precision, longitude double precision, city text, country text, consent text NOT NULL,
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, market text""";

  static final String READ_COLUMNS =
      "id, email, name, locale, time_zone, latitude, longitude, city, country, consent, market";

  private static final String INSERT = "INSERT INTO subscribers (" + COLUMNS + ") ";

  private static final String VALUES =
      "VALUES (:id, :email, :name, :locale, :timeZone, :latitude, :longitude, :city, :country, :consent,"
          + " :now, :now, :market) ";

  /**
   * An existing id keeps its created_at, and its market when the write names none (the market is often named
   * apart, with the market route, and a write that predates markets must not forget it); everything else is
   * replaced.
   */
  private static final String REPLACE_ON_CONFLICT = """
      ON CONFLICT (id) DO UPDATE SET email = excluded.email, name = excluded.name, locale = excluded.locale,
             time_zone = excluded.time_zone, latitude = excluded.latitude, longitude = excluded.longitude,
             city = excluded.city, country = excluded.country, consent = excluded.consent,
             updated_at = excluded.updated_at, market = coalesce(excluded.market, subscribers.market)""";

  private SubscriberTable() {}

  /**
   * Creates or replaces the subscriber with this id.
   *
   * @throws org.jdbi.v3.core.statement.UnableToExecuteStatementException when the email belongs to another
   *     subscriber ({@link #violatesEmailKey} tells)
   */
  static void upsert(Handle handle, Subscriber subscriber, Instant now) {
    bind(handle.createUpdate(INSERT + VALUES + REPLACE_ON_CONFLICT), subscriber, now)
        .execute();
  }

  /**
   * Inserts the subscriber unless its id exists, in one statement; empty when it existed.
   *
   * @throws org.jdbi.v3.core.statement.UnableToExecuteStatementException when the email belongs to another
   *     subscriber ({@link #violatesEmailKey} tells)
   */
  static Optional<Subscriber> insertNew(Handle handle, Subscriber subscriber, Instant now) {
    return bind(
            handle.createQuery(
                INSERT + VALUES + "ON CONFLICT (id) DO NOTHING RETURNING " + READ_COLUMNS),
            subscriber,
            now)
        .map(SubscriberTable::subscriber)
        .findOne();
  }

  /** Whether a write failed because the email belongs to another subscriber. */
  static boolean violatesEmailKey(RuntimeException failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof PSQLException psql
          && PSQLState.UNIQUE_VIOLATION.getState().equals(psql.getSQLState())) {
        ServerErrorMessage server = psql.getServerErrorMessage();
        return server != null && EMAIL_KEY.equals(server.getConstraint());
      }
    }
    return false;
  }

  static Optional<Subscriber> find(Handle handle, String id) {
    return handle
        .createQuery("SELECT " + READ_COLUMNS + " FROM subscribers WHERE id = :id")
        .bind("id", id)
        .map(SubscriberTable::subscriber)
        .findOne();
  }

  static Map<String, Locale> locales(Handle handle, Collection<String> ids) {
    Map<String, Locale> found = new HashMap<>();
    handle
        .createQuery("SELECT id, locale FROM subscribers WHERE id = ANY(:ids)")
        .bindArray("ids", String.class, ids)
        .map((rs, ctx) ->
            Map.entry(rs.getString("id"), Locale.forLanguageTag(rs.getString("locale"))))
        .forEach(entry -> found.put(entry.getKey(), entry.getValue()));
    return found;
  }

  static Map<String, SubscriberService.Placement> placements(
      Handle handle, Collection<String> ids) {
    Map<String, SubscriberService.Placement> found = new HashMap<>();
    handle
        .createQuery("SELECT id, market, country FROM subscribers WHERE id = ANY(:ids)")
        .bindArray("ids", String.class, ids)
        .map((rs, ctx) -> Map.entry(
            rs.getString("id"),
            new SubscriberService.Placement(
                Optional.ofNullable(rs.getString("market")),
                Optional.ofNullable(rs.getString("country")).map(String::trim))))
        .forEach(entry -> found.put(entry.getKey(), entry.getValue()));
    return found;
  }

  /** The subscribers among {@code ids} that exist, in one query. */
  static List<Subscriber> findAll(Handle handle, Collection<String> ids) {
    return handle
        .createQuery("SELECT " + READ_COLUMNS + " FROM subscribers WHERE id = ANY(:ids)")
        .bind("ids", ids.toArray(String[]::new))
        .map(SubscriberTable::subscriber)
        .list();
  }

  static Optional<Subscriber> findByEmail(Handle handle, String email) {
    return handle
        .createQuery(
            "SELECT " + READ_COLUMNS + " FROM subscribers WHERE lower(email) = lower(:email)")
        .bind("email", email)
        .map(SubscriberTable::subscriber)
        .findOne();
  }

  /** Up to {@code limit} subscribers in id order after the id {@code after}. */
  static List<Subscriber> page(Handle handle, Optional<String> after, int limit) {
    return handle
        .createQuery(
            "SELECT " + READ_COLUMNS
                + " FROM subscribers WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT :limit")
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(SubscriberTable::subscriber)
        .list();
  }

  /**
   * The statement of {@link #search}, for a test that asks the planner how it runs. Each test has the
   * shape its index of V38 serves: the start of {@code lower(id)} and {@code lower(email)} (btree,
   * text_pattern_ops), any part of {@code name} by ILIKE (trigrams).
   */
  static final String SEARCH = "SELECT " + READ_COLUMNS + " FROM subscribers"
      + " WHERE (:after::text IS NULL OR id > :after)"
      + " AND (lower(id) LIKE :prefix ESCAPE '!' OR lower(email) LIKE :prefix ESCAPE '!'"
      + " OR name ILIKE :part ESCAPE '!')"
      + " ORDER BY id LIMIT :limit";

  /**
   * Up to {@code limit} subscribers in id order after the id {@code after} whose id or email starts
   * with the text or whose name holds it. The planner either reads the matches from the trigram index
   * and sorts them (a rare text) or walks the subscribers in id order until the page is full (a
   * common one).
   */
  static List<Subscriber> search(
      Handle handle, SubscriberSearch search, Optional<String> after, int limit) {
    String text = search.likeText();
    return handle
        .createQuery(SEARCH)
        .bind("after", after.orElse(null))
        .bind("prefix", text + "%")
        .bind("part", "%" + text + "%")
        .bind("limit", limit)
        .map(SubscriberTable::subscriber)
        .list();
  }

  /** When the subscriber was first stored and last written. */
  static Optional<SubscriberService.Dates> dates(Handle handle, String id) {
    return handle
        .createQuery("SELECT created_at, updated_at FROM subscribers WHERE id = :id")
        .bind("id", id)
        .map((rs, ctx) -> new SubscriberService.Dates(
            rs.getTimestamp("created_at").toInstant(),
            rs.getTimestamp("updated_at").toInstant()))
        .findOne();
  }

  /** Deletes the subscriber; its follows go with it (ON DELETE CASCADE). */
  static boolean delete(Handle handle, String id) {
    return handle
            .createUpdate("DELETE FROM subscribers WHERE id = :id")
            .bind("id", id)
            .execute()
        > 0;
  }

  static long count(Handle handle) {
    return handle
        .createQuery("SELECT count(*) FROM subscribers")
        .mapTo(Long.class)
        .one();
  }

  /**
   * Upserts the rows of a chunk table that have no problem; with {@code duplicateKeys} each id's last row.
   * Rows whose email belongs to another subscriber must have been marked as problems before.
   */
  static void mergeChunk(Handle handle, String chunkTable, boolean duplicateKeys, Instant now) {
    String rows = duplicateKeys ? "DISTINCT ON (id)" : "";
    String order = duplicateKeys ? "ORDER BY id, line DESC" : "";
    handle
        .createUpdate(INSERT + """
            SELECT %s id, email, name, locale, time_zone, latitude, longitude, city, country, consent, :now, :now,
                   market
              FROM %s WHERE problem IS NULL
             %s
            """.formatted(rows, chunkTable, order) + REPLACE_ON_CONFLICT)
        .bind("now", now)
        .execute();
  }

  /** One row as COPY text for {@link #COLUMNS}. */
  static void copyRow(Subscriber s, Instant now, CopyRowWriter out) throws IOException {
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
        .instant(now)
        .text(s.market().orElse(null));
  }

  private static <S extends SqlStatement<S>> S bind(
      S statement, Subscriber subscriber, Instant now) {
    var location = subscriber.location();
    var point = location.flatMap(Location::point);
    return statement
        .bind("id", subscriber.id())
        .bind("email", subscriber.email())
        .bind("name", subscriber.name().orElse(null))
        .bind("locale", subscriber.locale().toLanguageTag())
        .bind("timeZone", subscriber.timeZone().getId())
        .bind("latitude", point.map(GeoPoint::latitude).orElse(null))
        .bind("longitude", point.map(GeoPoint::longitude).orElse(null))
        .bind("city", location.flatMap(Location::city).orElse(null))
        .bind("country", location.flatMap(Location::country).orElse(null))
        .bind("consent", subscriber.consent().wire())
        .bind("market", subscriber.market().orElse(null))
        .bind("now", now);
  }

  /** A row of {@link #READ_COLUMNS} as today's rules read it (see {@link StoredSubscriber}). */
  private static Subscriber subscriber(ResultSet rs, StatementContext ctx) throws SQLException {
    return StoredSubscriber.read(rs, StoredRows.of(ctx));
  }
}

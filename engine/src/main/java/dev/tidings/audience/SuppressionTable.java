package dev.tidings.audience;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The SQL of the {@code suppressions} table (V1__catalog_audience_activity.sql): addresses keyed by
 * {@code lower(email)}, so every lookup is one probe of that index. Statements run on the caller's handle, so
 * the caller decides the transaction.
 */
final class SuppressionTable {
  private static final String COLUMNS = "email, reason, created_at";

  private SuppressionTable() {}

  /** Inserts the suppression unless its address (in any case) is suppressed already; true when inserted. */
  static boolean insertUnlessSuppressed(Handle handle, Suppression suppression) {
    return handle
            .createUpdate("INSERT INTO suppressions (" + COLUMNS + ") VALUES (:email, :reason, :at)"
                + " ON CONFLICT ((lower(email))) DO NOTHING")
            .bind("email", suppression.email())
            .bind("reason", suppression.reason().wire())
            .bind("at", suppression.createdAt())
            .execute()
        > 0;
  }

  /** Suppresses the addresses of these subscribers, each for its reason; unknown ids are skipped. */
  /** Suppresses the subscribers' addresses; answers the subscribers whose address this suppressed. */
  static Map<String, String> insertForSubscribers(
      Handle handle, List<String> subscriberIds, List<String> reasons, Instant at) {
    Map<String, String> suppressed = new LinkedHashMap<>();
    handle
        .createQuery("""
            WITH wanted AS (
              SELECT x.id, s.email, x.reason FROM unnest(:ids, :reasons) AS x (id, reason)
                JOIN subscribers s ON s.id = x.id),
            stored AS (
              INSERT INTO suppressions (%s) SELECT email, reason, :at FROM wanted
              ON CONFLICT ((lower(email))) DO NOTHING RETURNING email)
            SELECT w.id, w.reason FROM wanted w JOIN stored ON stored.email = w.email
             ORDER BY w.id""".formatted(COLUMNS))
        .bindArray("ids", String.class, subscriberIds)
        .bindArray("reasons", String.class, reasons)
        .bind("at", at)
        .map((rs, ctx) -> Map.entry(rs.getString("id"), rs.getString("reason")))
        .forEach(row -> suppressed.putIfAbsent(row.getKey(), row.getValue()));
    return suppressed;
  }

  /** The suppression of one address, given in its lower-cased forms (as given, normalised). */
  static Optional<Suppression> find(Handle handle, List<String> lowerCaseForms) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM suppressions WHERE lower(email) = ANY(:emails)"
            + " ORDER BY created_at LIMIT 1")
        .bind("emails", lowerCaseForms.toArray(String[]::new))
        .map(SuppressionTable::suppression)
        .findOne();
  }

  static boolean exists(Handle handle, List<String> lowerCaseForms) {
    return handle
        .createQuery("SELECT EXISTS (SELECT 1 FROM suppressions WHERE lower(email) = ANY(:emails))")
        .bind("emails", lowerCaseForms.toArray(String[]::new))
        .mapTo(Boolean.class)
        .one();
  }

  /** Which of {@code lowerCaseEmails} are suppressed, lower-cased, in one query. */
  static List<String> suppressedAmong(Handle handle, Collection<String> lowerCaseEmails) {
    return handle
        .createQuery("SELECT lower(email) FROM suppressions WHERE lower(email) = ANY(:emails)")
        .bind("emails", lowerCaseEmails.toArray(String[]::new))
        .mapTo(String.class)
        .list();
  }

  static boolean delete(Handle handle, List<String> lowerCaseForms) {
    return handle
            .createUpdate("DELETE FROM suppressions WHERE lower(email) = ANY(:emails)")
            .bind("emails", lowerCaseForms.toArray(String[]::new))
            .execute()
        > 0;
  }

  /** Up to {@code limit} suppressions ordered by lower-cased address, after the address {@code after}. */
  static List<Suppression> page(Handle handle, Optional<String> after, int limit) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM suppressions " + """
            WHERE (:after::text IS NULL OR lower(email) > lower(:after))
            ORDER BY lower(email) LIMIT :limit""")
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(SuppressionTable::suppression)
        .list();
  }

  private static Suppression suppression(ResultSet rs, StatementContext ctx) throws SQLException {
    return new Suppression(
        rs.getString("email"),
        SuppressionReason.ofWire(rs.getString("reason")).orElseThrow(),
        rs.getTimestamp("created_at").toInstant());
  }
}

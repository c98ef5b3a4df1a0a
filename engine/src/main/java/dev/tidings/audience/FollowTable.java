package dev.tidings.audience;

import dev.tidings.imports.CopyRowWriter;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The SQL of the {@code follows} table (V1__catalog_audience_activity.sql): its columns, how a row becomes a
 * {@link Follow} and back, and the insert that single follows and bulk imports share (following again
 * re-dates). Statements run on the caller's handle, so the caller decides the transaction.
 */
final class FollowTable {
  static final String NAME = "follows";

  /** The columns every write sets, in the order of {@link #copyRow}. */
  static final String COLUMNS = "subscriber_id, target_type, target_id, followed_at";

  /** A chunk table's columns for a bulk import: the written columns without the table's constraints. */
  static final String CHUNK_COLUMNS =
      "subscriber_id text NOT NULL, target_type text NOT NULL, target_id text NOT NULL,"
          + " followed_at timestamptz NOT NULL";

  private static final String INSERT = "INSERT INTO follows (" + COLUMNS + ") ";

  private static final String REDATE_ON_CONFLICT =
      " ON CONFLICT (subscriber_id, target_type, target_id) DO UPDATE SET followed_at = excluded.followed_at";

  private FollowTable() {}

  /** Records (or re-dates) the follow if its subscriber exists; false when it does not. */
  static boolean follow(Handle handle, Follow follow) {
    return handle
            .createUpdate(INSERT
                + "SELECT id, :type, :target, :at FROM subscribers WHERE id = :subscriber"
                + REDATE_ON_CONFLICT)
            .bind("subscriber", follow.subscriberId())
            .bind("type", follow.target().type().wire())
            .bind("target", follow.target().id())
            .bind("at", follow.followedAt())
            .execute()
        > 0;
  }

  static boolean delete(Handle handle, String subscriberId, FollowTarget target) {
    return handle
            .createUpdate(
                "DELETE FROM follows WHERE subscriber_id = :s AND target_type = :type AND target_id = :target")
            .bind("s", subscriberId)
            .bind("type", target.type().wire())
            .bind("target", target.id())
            .execute()
        > 0;
  }

  /** What one subscriber follows, by target type then id. */
  static List<Follow> ofSubscriber(Handle handle, String subscriberId) {
    return handle
        .createQuery("SELECT " + COLUMNS
            + " FROM follows WHERE subscriber_id = :s ORDER BY target_type, target_id")
        .bind("s", subscriberId)
        .map(FollowTable::follow)
        .list();
  }

  static List<FollowTarget> targets(Handle handle, String subscriberId, Set<TargetType> types) {
    return handle
        .createQuery("SELECT target_type, target_id FROM follows"
            + " WHERE subscriber_id = :s AND target_type = ANY(:types)")
        .bind("s", subscriberId)
        .bindArray("types", String.class, types.stream().map(TargetType::wire).toList())
        .map((rs, ctx) ->
            new FollowTarget(TargetType.ofWire(rs.getString(1)).orElseThrow(), rs.getString(2)))
        .list();
  }

  /** Up to {@code limit} followers of a target in subscriber id order after the subscriber id {@code after}. */
  static List<Follow> followersPage(
      Handle handle, FollowTarget target, Optional<String> after, int limit) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM follows " + """
            WHERE target_type = :type AND target_id = :target AND (:after::text IS NULL OR subscriber_id > :after)
            ORDER BY subscriber_id LIMIT :limit""")
        .bind("type", target.type().wire())
        .bind("target", target.id())
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(FollowTable::follow)
        .list();
  }

  /**
   * Inserts (or re-dates) the follows of a chunk table that have no problem; with {@code duplicateKeys} each
   * pair's last row. Follows of unknown subscribers must have been marked as problems before.
   */
  static void mergeChunk(Handle handle, String chunkTable, boolean duplicateKeys) {
    String rows = duplicateKeys ? "DISTINCT ON (subscriber_id, target_type, target_id)" : "";
    String order = duplicateKeys ? "ORDER BY subscriber_id, target_type, target_id, line DESC" : "";
    handle.execute(INSERT
        + "SELECT %s %s FROM %s WHERE problem IS NULL %s"
            .formatted(rows, COLUMNS, chunkTable, order)
        + REDATE_ON_CONFLICT);
  }

  /** One row as COPY text for {@link #COLUMNS}. */
  static void copyRow(Follow f, CopyRowWriter out) throws IOException {
    out.text(f.subscriberId())
        .text(f.target().type().wire())
        .text(f.target().id())
        .instant(f.followedAt());
  }

  private static Follow follow(ResultSet rs, StatementContext ctx) throws SQLException {
    return new Follow(
        rs.getString("subscriber_id"),
        new FollowTarget(
            TargetType.ofWire(rs.getString("target_type")).orElseThrow(),
            rs.getString("target_id")),
        rs.getTimestamp("followed_at").toInstant());
  }
}

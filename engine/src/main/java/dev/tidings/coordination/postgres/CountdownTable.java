package dev.tidings.coordination.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of the countdown tables (V3__countdown.sql). Each claim, renew and finish is one statement in
 * its own transaction, so no lock is held across a round trip; every time comes from the database's
 * clock ({@code clock_timestamp()}). A countdown past its {@code forget_at} is treated as absent
 * everywhere and deleted by the next start.
 */
final class CountdownTable {
  /** A countdown that exists and has not been forgotten. */
  private static final String LIVE = """
      live AS (SELECT name, parts FROM countdown WHERE name = :name AND forget_at > clock_timestamp())
      """;

  private final Jdbi jdbi;

  CountdownTable(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** Deletes every countdown past its retention, with its parts. */
  void purgeForgotten() {
    jdbi.useHandle(handle -> handle
        .createUpdate("DELETE FROM countdown WHERE forget_at <= clock_timestamp()")
        .execute());
  }

  /** True when this call inserted the countdown; false when one of that name exists. */
  boolean insert(String name, int parts, String starter, Duration retention) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            INSERT INTO countdown (name, parts, remaining, starter, retention_ms, forget_at)
            VALUES (:name, :parts, :parts, :starter, :retentionMs,
                    clock_timestamp() + :retentionMs * interval '1 millisecond')
            ON CONFLICT (name) DO NOTHING
            RETURNING true
            """)
        .bind("name", name)
        .bind("parts", parts)
        .bind("starter", starter)
        .bind("retentionMs", retention.toMillis())
        .mapTo(Boolean.class)
        .findOne()
        .isPresent());
  }

  /** The starter of a live countdown; empty when there is none. */
  Optional<String> starter(String name) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT starter FROM countdown WHERE name = :name AND forget_at > clock_timestamp()")
        .bind("name", name)
        .mapTo(String.class)
        .findOne());
  }

  /** What one statement saw: the countdown's parts (null: no live countdown) and its answer. */
  record Outcome(@Nullable Integer parts, @Nullable Long value) {}

  /**
   * Takes the part's lease when it is free, expired, or already this holder's; the fence is new unless
   * the holder's own lease was still live. Re-arms the countdown's retention when it took the lease.
   */
  Outcome claim(String name, int part, String holder, Duration leaseTtl) {
    return jdbi.withHandle(handle -> handle
        .createQuery("WITH " + LIVE + """
            , claimed AS (
              INSERT INTO countdown_part AS p (name, part, fence, holder, lease_expires_at)
              SELECT name, :part, nextval('countdown_fence'), :holder,
                     clock_timestamp() + :leaseMs * interval '1 millisecond'
                FROM live WHERE :part BETWEEN 0 AND parts - 1
              ON CONFLICT (name, part) DO UPDATE
                 SET fence = CASE WHEN p.holder = EXCLUDED.holder
                                   AND p.lease_expires_at > clock_timestamp()
                                  THEN p.fence ELSE EXCLUDED.fence END,
                     holder = EXCLUDED.holder,
                     lease_expires_at = EXCLUDED.lease_expires_at
               WHERE p.done_remaining IS NULL
                 AND (p.lease_expires_at <= clock_timestamp() OR p.holder = EXCLUDED.holder)
              RETURNING p.fence),
            touched AS (
              UPDATE countdown k SET forget_at = clock_timestamp() + k.retention_ms * interval '1 millisecond'
               WHERE k.name = :name AND EXISTS (SELECT 1 FROM claimed))
            SELECT (SELECT parts FROM live) AS parts, (SELECT fence FROM claimed) AS value
            """)
        .bind("name", name)
        .bind("part", part)
        .bind("holder", holder)
        .bind("leaseMs", leaseTtl.toMillis())
        .map((rs, ctx) ->
            new Outcome(rs.getObject("parts", Integer.class), rs.getObject("value", Long.class)))
        .one());
  }

  /** Extends the lease if its fence is still the part's and the part is not done; value 1 if so. */
  Outcome renew(String name, int part, long fence, Duration leaseTtl) {
    return jdbi.withHandle(handle -> handle
        .createQuery("WITH " + LIVE + """
            , renewed AS (
              UPDATE countdown_part p
                 SET lease_expires_at = clock_timestamp() + :leaseMs * interval '1 millisecond'
                FROM live
               WHERE p.name = live.name AND p.part = :part AND p.fence = :fence
                 AND p.done_remaining IS NULL
              RETURNING p.part),
            touched AS (
              UPDATE countdown k SET forget_at = clock_timestamp() + k.retention_ms * interval '1 millisecond'
               WHERE k.name = :name AND EXISTS (SELECT 1 FROM renewed))
            SELECT (SELECT parts FROM live) AS parts,
                   (SELECT count(*) FROM renewed) AS value
            """)
        .bind("name", name)
        .bind("part", part)
        .bind("fence", fence)
        .bind("leaseMs", leaseTtl.toMillis())
        .map((rs, ctx) ->
            new Outcome(rs.getObject("parts", Integer.class), rs.getObject("value", Long.class)))
        .one());
  }

  /**
   * Marks the part done and counts down, if the fence is the part's and the part is not done yet;
   * value is the remainder then, null when nothing was counted.
   *
   * <p>The part's row is the gate: {@code FOR UPDATE} makes a concurrent finish of the same part wait
   * for this one and then re-check {@code done_remaining IS NULL} on the row this one wrote, so the
   * countdown's row is decremented once per part, in the same statement that marks the part.
   */
  Outcome finish(String name, int part, long fence) {
    return jdbi.withHandle(handle -> handle
        .createQuery("WITH " + LIVE + """
            , gate AS (
              SELECT p.name FROM countdown_part p JOIN live ON live.name = p.name
               WHERE p.part = :part AND p.fence = :fence AND p.done_remaining IS NULL
               FOR UPDATE OF p),
            counted AS (
              UPDATE countdown k
                 SET remaining = k.remaining - 1,
                     forget_at = clock_timestamp() + k.retention_ms * interval '1 millisecond'
               WHERE k.name IN (SELECT name FROM gate)
              RETURNING k.remaining),
            finished AS (
              UPDATE countdown_part p SET done_remaining = counted.remaining, lease_expires_at = NULL
                FROM counted, gate
               WHERE p.name = gate.name AND p.part = :part
              RETURNING p.done_remaining)
            SELECT (SELECT parts FROM live) AS parts, (SELECT done_remaining FROM finished)::bigint AS value
            """)
        .bind("name", name)
        .bind("part", part)
        .bind("fence", fence)
        .map((rs, ctx) ->
            new Outcome(rs.getObject("parts", Integer.class), rs.getObject("value", Long.class)))
        .one());
  }

  /** A part's state as committed now, to explain a finish that counted nothing. */
  record PartState(long fence, @Nullable Long doneRemaining) {}

  /** Empty when the countdown is not live; a part never claimed has fence 0. */
  Optional<PartState> part(String name, int part) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT coalesce(p.fence, 0) AS fence, p.done_remaining::bigint AS done_remaining
              FROM countdown c LEFT JOIN countdown_part p ON p.name = c.name AND p.part = :part
             WHERE c.name = :name AND c.forget_at > clock_timestamp()
            """)
        .bind("name", name)
        .bind("part", part)
        .map((rs, ctx) ->
            new PartState(rs.getLong("fence"), rs.getObject("done_remaining", Long.class)))
        .findOne());
  }

  List<Integer> stuck(String name) {
    return jdbi.withHandle(handle ->
        handle.createQuery("""
            SELECT p.part FROM countdown c JOIN countdown_part p ON p.name = c.name
             WHERE c.name = :name AND c.forget_at > clock_timestamp()
               AND p.done_remaining IS NULL AND p.lease_expires_at <= clock_timestamp()
             ORDER BY p.part
            """).bind("name", name).mapTo(Integer.class).list());
  }

  OptionalLong remaining(String name) {
    return jdbi.withHandle(handle ->
            handle.createQuery("""
                SELECT remaining FROM countdown WHERE name = :name AND forget_at > clock_timestamp()
                """).bind("name", name).mapTo(Long.class).findOne())
        .map(OptionalLong::of)
        .orElseGet(OptionalLong::empty);
  }
}

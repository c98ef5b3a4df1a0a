package dev.tidings.activity.aggregate;

import dev.tidings.storage.DayPartitions;
import java.time.LocalDate;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The people who have counted into a {@link Measure#PEOPLE} aggregate, per day ({@code
 * aggregate_people}, V21, one row per day and user since V28.1): a counting round adds the hash keys
 * each person touched to that person's row of the day and counts only those that were not there. The
 * row is the arbiter between rounds on any number of nodes: a round that meets a row another round
 * inserted or changed and has not committed waits for that commit and then adds to the row as
 * committed (or inserts it, if that round rolled back), so a person counts once however the events are
 * spread. Rows are written in (day, user) order, so rounds that share people queue rather than
 * deadlock. One row per person a round, not per touch: a visit that pairs twenty items touches four
 * hundred pair aggregates and writes one row. A day's partition is dropped with the aggregates' day
 * partitions; a repeat arriving after that (an event older than the retention) counts again into the
 * month and all-time periods.
 */
final class DistinctPeople {
  /** Serialises partition creation across nodes; its own number in Tidings' advisory lock space. */
  private static final long PARTITION_LOCK = 7_303;

  private final DayPartitions days;

  DistinctPeople(Jdbi jdbi) {
    this.days = new DayPartitions(jdbi, "aggregate_people", PARTITION_LOCK, "");
  }

  /** A person's event on an aggregate (its hash key) on a day. */
  record Touch(LocalDate day, String hashKey, String userId) {}

  /** The hash keys a person's row of a day did not hold before. */
  private record Added(LocalDate day, String userId, String[] hashKeys) {}

  /**
   * Adds the touches in the caller's transaction and answers those that were not there before; the
   * caller counts exactly those, in the same transaction.
   */
  Set<Touch> firsts(Handle handle, Collection<Touch> touches) {
    if (touches.isEmpty()) return new HashSet<>();
    var days = new String[touches.size()];
    var users = new String[touches.size()];
    var hashes = new String[touches.size()];
    var touchedDays = new HashSet<LocalDate>();
    int at = 0;
    for (Touch touch : touches) {
      days[at] = touch.day().toString();
      users[at] = touch.userId();
      hashes[at++] = touch.hashKey();
      touchedDays.add(touch.day());
    }
    try {
      touchedDays.forEach(this.days::ensure);
      var firsts = HashSet.<Touch>newHashSet(touches.size());
      // a new row's keys are all new (its "added" is NULL); an updated row says in "added" which
      // of its keys were
      handle
          .createQuery("""
              INSERT INTO aggregate_people AS p (day, user_id, hash_keys)
              SELECT d, u, array_agg(DISTINCT h)
                FROM unnest(:days::date[], :users::text[], :hashes::text[]) AS t (d, u, h)
               GROUP BY d, u
               ORDER BY d, u COLLATE "C"
              ON CONFLICT (day, user_id) DO UPDATE
                 SET added = ARRAY(SELECT unnest(excluded.hash_keys) EXCEPT SELECT unnest(p.hash_keys)),
                     hash_keys = p.hash_keys
                       || ARRAY(SELECT unnest(excluded.hash_keys) EXCEPT SELECT unnest(p.hash_keys))
              RETURNING day, user_id, coalesce(added, hash_keys)""")
          .bindArray("days", String.class, (Object[]) days)
          .bindArray("users", String.class, (Object[]) users)
          .bindArray("hashes", String.class, (Object[]) hashes)
          .map((result, context) -> new Added(
              result.getObject(1, LocalDate.class),
              result.getString(2),
              (String[]) result.getArray(3).getArray()))
          .forEach(added -> {
            for (String hash : added.hashKeys())
              firsts.add(new Touch(added.day(), hash, added.userId()));
          });
      return firsts;
    } catch (RuntimeException e) {
      if (DayPartitions.isMissing(e)) this.days.forget();
      throw e;
    }
  }

  /** Forgets who counted into one aggregation's keys (a rebuild counts them again). */
  long deleteAggregation(Handle handle, String hashKeyPattern) {
    return handle
        .createUpdate("""
            UPDATE aggregate_people
               SET hash_keys = ARRAY(SELECT h FROM unnest(hash_keys) AS h WHERE h NOT LIKE :pattern),
                   added = NULL
             WHERE EXISTS (SELECT 1 FROM unnest(hash_keys) AS h WHERE h LIKE :pattern)""")
        .bind("pattern", hashKeyPattern)
        .execute();
  }

  int dropBefore(LocalDate firstKept) {
    return days.dropBefore(firstKept);
  }
}

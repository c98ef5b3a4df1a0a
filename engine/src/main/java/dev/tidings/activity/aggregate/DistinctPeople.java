package dev.tidings.activity.aggregate;

import dev.tidings.storage.AdvisoryLock;
import dev.tidings.storage.DayPartitions;
import java.time.LocalDate;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The people who have counted into a {@link Measure#PEOPLE} aggregate, per day ({@code
 * aggregate_people}, V21): a counting round inserts the touches of its events and counts only those
 * that were new. The primary key is the arbiter between rounds on any number of nodes: a touch another
 * round inserted and has not committed waits for that commit and is then not new (or is, if that
 * round rolled back), so a person counts once however the events are spread. Touches are inserted in
 * key order, so rounds that share touches queue rather than deadlock. A day's partition is dropped
 * with the aggregates' day partitions; a repeat arriving after that (an event older than the
 * retention) counts again into the month and all-time periods.
 */
final class DistinctPeople {
  private final DayPartitions days;

  DistinctPeople(Jdbi jdbi) {
    this.days =
        new DayPartitions(jdbi, "aggregate_people", AdvisoryLock.DISTINCT_PEOPLE_PARTITIONS, "");
  }

  /** A person's event on an aggregate (its hash key) on a day. */
  record Touch(LocalDate day, String hashKey, String userId) implements Comparable<Touch> {
    @Override
    public int compareTo(Touch other) {
      int byDay = day.compareTo(other.day);
      if (byDay != 0) return byDay;
      int byKey = hashKey.compareTo(other.hashKey);
      return byKey != 0 ? byKey : userId.compareTo(other.userId);
    }
  }

  /**
   * Inserts the touches in the caller's transaction and answers those that were not there before;
   * the caller counts exactly those, in the same transaction.
   */
  Set<Touch> firsts(Handle handle, Collection<Touch> touches) {
    if (touches.isEmpty()) return new HashSet<>();
    List<Touch> rows = touches.stream().distinct().sorted().toList();
    try {
      rows.stream().map(Touch::day).distinct().forEach(days::ensure);
      var firsts = HashSet.<Touch>newHashSet(rows.size());
      handle
          .createQuery("""
              INSERT INTO aggregate_people (day, hash_key, user_id)
              SELECT d, h, u FROM unnest(:days::date[], :hashes::text[], :users::text[])
                     WITH ORDINALITY AS t (d, h, u, o)
               ORDER BY o
              ON CONFLICT DO NOTHING
              RETURNING day, hash_key, user_id""")
          .bindArray(
              "days", String.class, rows.stream().map(t -> t.day().toString()).toList())
          .bindArray("hashes", String.class, rows.stream().map(Touch::hashKey).toList())
          .bindArray("users", String.class, rows.stream().map(Touch::userId).toList())
          .map((result, context) -> new Touch(
              result.getObject(1, LocalDate.class), result.getString(2), result.getString(3)))
          .forEach(firsts::add);
      return firsts;
    } catch (RuntimeException e) {
      if (DayPartitions.isMissing(e)) days.forget();
      throw e;
    }
  }

  /** Forgets who counted into one aggregation's keys (a rebuild counts them again). */
  long deleteAggregation(Handle handle, String hashKeyPattern) {
    return handle
        .createUpdate("DELETE FROM aggregate_people WHERE hash_key LIKE :pattern")
        .bind("pattern", hashKeyPattern)
        .execute();
  }

  int dropBefore(LocalDate firstKept) {
    return days.dropBefore(firstKept);
  }
}

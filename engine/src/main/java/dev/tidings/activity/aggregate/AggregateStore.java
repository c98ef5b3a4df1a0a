package dev.tidings.activity.aggregate;

import dev.tidings.storage.AdvisoryLock;
import dev.tidings.storage.DayPartitions;
import dev.tidings.storage.Expiry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Aggregates in PostgreSQL. A batch of deltas is added in one transaction, in key order so that two
 * batches touching the same keys queue behind each other instead of deadlocking. Day periods go to
 * a partition per day, made on first use and dropped whole when the day falls out of retention.
 * Thread-safe.
 */
public final class AggregateStore {

  private final Jdbi jdbi;
  private final DayPartitions days;
  private final DistinctPeople people;

  public AggregateStore(Jdbi jdbi) {
    this.jdbi = jdbi;
    this.days = new DayPartitions(
        jdbi, "aggregate_days", AdvisoryLock.AGGREGATE_DAY_PARTITIONS, "fillfactor = 80");
    this.people = new DistinctPeople(jdbi);
  }

  /** Who has counted into the {@link Measure#PEOPLE} aggregates, kept as long as their days. */
  DistinctPeople people() {
    return people;
  }

  /** One aggregate's value for one period. */
  public record Entry(AggregateKey key, double value) {}

  /** Adds every delta to its aggregate, creating those that are new; all or nothing. */
  public void add(Map<AggregateKey, Double> deltas) {
    for (AggregateKey key : deltas.keySet())
      if (key.bucket().orElse(null) instanceof KeyPart.Day day) days.ensure(day.day());
    try {
      jdbi.useTransaction(handle -> add(handle, deltas));
    } catch (RuntimeException e) {
      // another node dropped a day this node had seen (an old event's day, past retention); the
      // failed attempt forgot the days it knew, so this one makes the partition again
      if (!DayPartitions.isMissing(e)) throw e;
      jdbi.useTransaction(handle -> add(handle, deltas));
    }
  }

  /**
   * Adds the deltas within the caller's transaction, with what the caller writes beside them (the
   * events they count). A day whose partition another node dropped fails the transaction, and this
   * node forgets the days it knew, so the caller's retry makes the partition again.
   */
  public void add(Handle handle, Map<AggregateKey, Double> deltas) {
    var flat = HashMap.<FlatKey, Double>newHashMap(deltas.size());
    deltas.forEach((key, value) -> flat.merge(FlatKey.of(key), value, Double::sum));
    addFlat(handle, flat);
  }

  /** As {@link #add(Handle, Map)}, for a counting round's sums. */
  void addFlat(Handle handle, Map<FlatKey, Double> deltas) {
    if (deltas.isEmpty()) return;
    var periods = new ArrayList<Row>();
    var daily = new ArrayList<Row>();
    var dayPartitions = new HashSet<LocalDate>();
    for (var delta : deltas.entrySet()) {
      FlatKey key = delta.getKey();
      var row = new Row(key.hashKey(), key.rangeKey(), delta.getValue());
      if (key.period() instanceof KeyPart.Day day) {
        daily.add(row);
        dayPartitions.add(day.day());
      } else {
        periods.add(row);
      }
    }
    try {
      dayPartitions.forEach(days::ensure);
      upsert(handle, "aggregates", "range_key", "r", periods);
      upsert(handle, "aggregate_days", "day", "r::date", daily);
    } catch (RuntimeException e) {
      if (DayPartitions.isMissing(e)) days.forget();
      throw e;
    }
  }

  /** A delta with its key written out once: sorting compares these strings many times. */
  private record Row(String hash, String range, double value) implements Comparable<Row> {
    @Override
    public int compareTo(Row other) {
      int byHash = hash.compareTo(other.hash);
      return byHash != 0 ? byHash : range.compareTo(other.range);
    }
  }

  /** One statement for the deltas of one table, in key order. */
  private static void upsert(
      Handle handle, String table, String rangeColumn, String range, List<Row> deltas) {
    if (deltas.isEmpty()) return;
    deltas.sort(null);
    var hashes = new String[deltas.size()];
    var ranges = new String[deltas.size()];
    var values = new Double[deltas.size()];
    for (int i = 0; i < hashes.length; i++) {
      Row row = deltas.get(i);
      hashes[i] = row.hash();
      ranges[i] = row.range();
      values[i] = row.value();
    }
    handle
        .createUpdate("""
            INSERT INTO %1$s (hash_key, %2$s, value)
            SELECT h, %3$s, v FROM unnest(:hashes, :ranges, :values) WITH ORDINALITY AS d (h, r, v, o)
            ORDER BY o
            ON CONFLICT (hash_key, %2$s)
            DO UPDATE SET value = %1$s.value + excluded.value, updated_at = now()""".formatted(table, rangeColumn, range))
        .bindArray("hashes", String.class, (Object[]) hashes)
        .bindArray("ranges", String.class, (Object[]) ranges)
        .bindArray("values", Double.class, (Object[]) values)
        .execute();
  }

  /**
   * The aggregates whose hash key starts with {@code hashPrefix} as text (a whole hash key reads one
   * aggregate's periods), with periods from {@code fromRange} to {@code toRange} inclusive as text
   * (empty for no bound), in key order (by code point, as the keys' grammar sorts), at most {@code
   * limit}.
   */
  public List<Entry> read(String hashPrefix, String fromRange, String toRange, int limit) {
    // no hash key is empty, so :exact matches nothing here
    return select(
        "(hash_key LIKE :like OR hash_key = :exact)",
        like(hashPrefix),
        "",
        fromRange,
        toRange,
        limit);
  }

  /**
   * The aggregates under {@code key}'s segments: its own hash key and every longer one that starts
   * with all of its segments ({@code s@user:s@u-1} reads u-1's aggregates, not u-10's).
   */
  public List<Entry> under(AggregateKey key, String fromRange, String toRange, int limit) {
    String exact = key.format();
    return select(
        "(hash_key = :exact OR hash_key LIKE :like)",
        like(exact + ":"),
        exact,
        fromRange,
        toRange,
        limit);
  }

  /**
   * As {@link #under(AggregateKey, String, String, int)} with no bounds on months, years and all time,
   * and day periods from {@code firstDay} on only: a reader of recent days reads their partitions, not
   * the whole retention.
   */
  public List<Entry> under(AggregateKey key, LocalDate firstDay, int limit) {
    String exact = key.format();
    return select(
        "(hash_key = :exact OR hash_key LIKE :like)",
        like(exact + ":"),
        exact,
        "",
        "",
        limit,
        Optional.of(firstDay));
  }

  /**
   * Every aggregate whose key starts with {@code prefix} (whole key parts), day periods from {@code
   * firstDay} on, streamed to {@code each} without holding them all: a node warming its memory reads
   * every user's aggregates this way once at start. No order is promised.
   */
  public void forEachUnder(AggregateKey prefix, LocalDate firstDay, Consumer<Entry> each) {
    String pattern = like(prefix.format() + ":");
    jdbi.useTransaction(handle -> {
      // a cursor (fetch size inside a transaction) keeps memory flat however many rows there are
      for (String sql : List.of(
          "SELECT hash_key, range_key, value FROM aggregates WHERE hash_key LIKE :like",
          "SELECT hash_key, to_char(day, 'YYYY-MM-DD'), value FROM aggregate_days"
              + " WHERE hash_key LIKE :like AND day >= :firstDay"))
        handle
            .createQuery(sql)
            .bind("like", pattern)
            .bind("firstDay", firstDay)
            .setFetchSize(10_000)
            .map((rows, context) -> entry(rows))
            .forEach(each);
    });
  }

  private static String like(String prefix) {
    return escapeLike(prefix) + "%";
  }

  private static String escapeLike(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  private List<Entry> select(
      String where, String like, String exact, String fromRange, String toRange, int limit) {
    return select(where, like, exact, fromRange, toRange, limit, Optional.empty());
  }

  private List<Entry> select(
      String where,
      String like,
      String exact,
      String fromRange,
      String toRange,
      int limit,
      Optional<LocalDate> firstDay) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT hash_key, range_key, value FROM (
              SELECT hash_key, range_key, value FROM aggregates WHERE %1$s
              UNION ALL
              SELECT hash_key, to_char(day, 'YYYY-MM-DD'), value FROM aggregate_days
              WHERE %1$s AND day >= :firstDay) AS a
            WHERE (:from = '' OR range_key COLLATE "C" >= :from)
              AND (:to = '' OR range_key COLLATE "C" <= :to)
            ORDER BY hash_key COLLATE "C", range_key COLLATE "C"
            LIMIT :limit""".formatted(where))
        .bind("like", like)
        .bind("exact", exact)
        .bind("from", fromRange)
        .bind("to", toRange)
        .bind("limit", limit)
        .bind("firstDay", firstDay.orElse(LocalDate.of(1, 1, 1)))
        .map((rows, context) -> entry(rows))
        .list());
  }

  /** A row of (hash key, range key or empty, value) as an entry: the range key is the period. */
  private static Entry entry(ResultSet rows) throws SQLException {
    String hash = rows.getString(1);
    String range = rows.getString(2);
    return new Entry(
        AggregateKey.parse(range.isEmpty() ? hash : hash + ":b@" + range), rows.getDouble(3));
  }

  /**
   * Deletes every aggregate one aggregation wrote (its hash keys end with its name and algorithm), in
   * one transaction; a scan of both tables, for a rebuild rather than the request path.
   */
  public long deleteAggregation(String name, String algorithm) {
    String suffix =
        ":" + new KeyPart.Text(name).format() + ":" + new KeyPart.Text(algorithm).format();
    String pattern = "%" + escapeLike(suffix);
    return jdbi.inTransaction(handle -> {
      long deleted = 0;
      for (String table : List.of("aggregates", "aggregate_days"))
        deleted += handle
            .createUpdate("DELETE FROM " + table + " WHERE hash_key LIKE :pattern")
            .bind("pattern", pattern)
            .execute();
      people.deleteAggregation(handle, pattern);
      return deleted;
    });
  }

  /**
   * Day aggregates past the retention, a day partition a step (and who counted into that day with it):
   * the rows of a day expire together, dropped, not deleted. A day expires once it ended before the
   * time asked.
   */
  public Expiry dayExpiry() {
    return new Expiry() {
      @Override
      public String table() {
        return "aggregate_days";
      }

      @Override
      public Removed removeSome(Instant before, int batch) {
        LocalDate firstKept = before.atZone(ZoneOffset.UTC).toLocalDate();
        OptionalLong dropped = days.dropOldestBefore(firstKept);
        people.dropBefore(firstKept);
        return new Removed(dropped.orElse(0), dropped.isEmpty());
      }
    };
  }

  /**
   * Drops the partitions of days before {@code firstKept}, of the aggregates and of who counted into
   * them; returns how many aggregate days it dropped.
   */
  public int dropDaysBefore(LocalDate firstKept) {
    int dropped = days.dropBefore(firstKept);
    people.dropBefore(firstKept);
    return dropped;
  }

  private static LocalDate day(AggregateKey key) {
    return ((KeyPart.Day) key.bucket().orElseThrow()).day();
  }
}

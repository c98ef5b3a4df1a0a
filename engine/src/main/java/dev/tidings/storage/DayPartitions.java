package dev.tidings.storage;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The day partitions of a table partitioned by a {@code date} column: made on first use, dropped whole
 * when past retention (one statement, not a delete of every row). Names sort as the days do ({@code
 * aggregate_days_20261123}). Creation and dropping are serialised across nodes by an advisory lock.
 */
public final class DayPartitions {
  private static final DateTimeFormatter SUFFIX = DateTimeFormatter.BASIC_ISO_DATE;

  private final Jdbi jdbi;
  private final String table;
  private final AdvisoryLock lock;
  private final String storage;
  private final Set<LocalDate> made = ConcurrentHashMap.newKeySet();

  /**
   * @param lock the table's lock, serialising creation and dropping across nodes
   * @param storage storage parameters of each partition ({@code fillfactor = 80}), or empty
   */
  public DayPartitions(Jdbi jdbi, String table, AdvisoryLock lock, String storage) {
    if (lock.form() != AdvisoryLock.Form.SINGLE)
      throw new IllegalArgumentException(lock + " is a key space, not one lock");
    this.jdbi = jdbi;
    this.table = table;
    this.lock = lock;
    this.storage = storage;
  }

  /**
   * Makes the day's partition on a connection of its own, committed at once. Inside the caller's
   * transaction (Jdbi hands a nested call the thread's open handle) its exclusive lock would be held
   * until that transaction ends, and concurrent writers deadlock on it; the lock timeout bounds a wait
   * on writers that wait on the caller.
   */
  public void ensure(LocalDate day) {
    if (made.contains(day)) return;
    try (Handle own = jdbi.open()) {
      own.useTransaction(handle -> {
        handle.execute("SET LOCAL lock_timeout = '5s'");
        lock(handle);
        handle.execute("CREATE TABLE IF NOT EXISTS " + name(day) + " PARTITION OF " + table
            + " FOR VALUES FROM ('" + day + "') TO ('" + day.plusDays(1) + "')"
            + (storage.isEmpty() ? "" : " WITH (" + storage + ")"));
      });
    }
    made.add(day);
  }

  /** Drops the partitions of days before {@code firstKept}; returns how many it dropped. */
  public int dropBefore(LocalDate firstKept) {
    return jdbi.inTransaction(handle -> {
      lock(handle);
      List<String> old = handle
          .createQuery("""
              SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = CAST(:table AS regclass) AND c.relname < :first""")
          .bind("table", table)
          .bind("first", name(firstKept))
          .mapTo(String.class)
          .list();
      for (String name : old) handle.execute("DROP TABLE " + name);
      old.forEach(name -> made.remove(LocalDate.parse(name.substring(name.length() - 8), SUFFIX)));
      return old.size();
    });
  }

  /**
   * Drops the oldest partition of a day before {@code firstKept}, if there is one; returns how many rows
   * it held (counted before the drop, for the retention's metric). One partition a call, so that the
   * lock every writer of a new day waits on is held for one drop only.
   */
  public OptionalLong dropOldestBefore(LocalDate firstKept) {
    return jdbi.inTransaction(handle -> {
      lock(handle);
      Optional<String> oldest = handle
          .createQuery("""
              SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = CAST(:table AS regclass) AND c.relname < :first
              ORDER BY c.relname LIMIT 1""")
          .bind("table", table)
          .bind("first", name(firstKept))
          .mapTo(String.class)
          .findOne();
      if (oldest.isEmpty()) return OptionalLong.empty();
      String name = oldest.get();
      long rows =
          handle.createQuery("SELECT count(*) FROM " + name).mapTo(Long.class).one();
      handle.execute("DROP TABLE " + name);
      made.remove(LocalDate.parse(name.substring(name.length() - 8), SUFFIX));
      return OptionalLong.of(rows);
    });
  }

  /**
   * Forgets the days made: after a write failed for want of a partition that another node dropped (an
   * old day, past retention), the retry makes it again.
   */
  public void forget() {
    made.clear();
  }

  /** "no partition of relation found for row": check_violation. */
  public static boolean isMissing(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && "23514".equals(sql.getSQLState())) return true;
    }
    return false;
  }

  private void lock(Handle handle) {
    handle
        .createQuery("SELECT count(pg_advisory_xact_lock(:lock))")
        .bind("lock", lock.key())
        .mapTo(Long.class)
        .one();
  }

  private String name(LocalDate day) {
    return table + "_" + SUFFIX.format(day);
  }
}

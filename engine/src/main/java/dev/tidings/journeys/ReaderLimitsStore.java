package dev.tidings.journeys;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.sql.Time;
import java.time.Duration;
import java.time.LocalTime;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The shop's {@link ReaderLimits} (table {@code reader_limits}), {@link ReaderLimits#DEFAULT} until
 * it sets its own; every node reads them at most every few seconds.
 */
public final class ReaderLimitsStore {
  private final Jdbi jdbi;
  private final LoadingCache<Boolean, ReaderLimits> current;

  public ReaderLimitsStore(Jdbi jdbi) {
    this.jdbi = jdbi;
    this.current =
        Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(5)).build(key -> read());
  }

  public ReaderLimits get() {
    return current.get(true);
  }

  public ReaderLimits put(ReaderLimits limits) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO reader_limits (only_row, per_day, per_week, quiet_from, quiet_until)
            VALUES (true, :day, :week, :from, :until)
            ON CONFLICT (only_row) DO UPDATE SET per_day = :day, per_week = :week,
              quiet_from = :from, quiet_until = :until""")
        .bind("day", limits.perDay())
        .bind("week", limits.perWeek())
        .bind("from", time(limits.quietFrom()))
        .bind("until", time(limits.quietUntil()))
        .execute());
    current.invalidateAll();
    return limits;
  }

  private ReaderLimits read() {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT per_day, per_week, quiet_from, quiet_until FROM reader_limits")
        .map((rows, context) -> new ReaderLimits(
            rows.getInt(1), rows.getInt(2), local(rows.getTime(3)), local(rows.getTime(4))))
        .findOne()
        .orElse(ReaderLimits.DEFAULT));
  }

  private static @Nullable Time time(@Nullable LocalTime time) {
    return time == null ? null : Time.valueOf(time);
  }

  private static @Nullable LocalTime local(@Nullable Time time) {
    return time == null ? null : time.toLocalTime();
  }
}

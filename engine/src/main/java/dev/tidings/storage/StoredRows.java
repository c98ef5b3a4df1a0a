package dev.tidings.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.JdbiConfig;
import org.jdbi.v3.core.statement.StatementContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a read says that a stored row breaks today's input rules: a row an earlier version accepted
 * (a rule got stricter since, or the JDK's lists changed) is still read, its owner dropping the
 * offending field or leaving the row out, and never answered with a 500. Each such read is counted
 * in {@code tidings_stored_rows_unreadable_total{table,field}}, so the count stops growing once
 * {@code tidings migrate} repaired the rows; each row and field is logged once per node (the first
 * {@value #REMEMBERED} of them), not on every read of a product that every open reads.
 *
 * <p>One per {@link Jdbi}, as its configuration ({@link Database} points it at the node's metrics),
 * so every reader of the database's tables reaches it from the statement it maps a row of.
 */
public final class StoredRows implements JdbiConfig<StoredRows> {
  /** Prometheus adds {@code _total}; labels {@code table} and {@code field} (a column name). */
  public static final String UNREADABLE = "tidings.stored.rows.unreadable";

  static final int REMEMBERED = 10_000;
  private static final Logger log = LoggerFactory.getLogger(StoredRows.class);

  /** What every copy of the configuration shares: Jdbi copies it for each handle and statement. */
  private static final class Shared {
    private volatile @Nullable MeterRegistry metrics;
    private final Cache<String, Boolean> logged =
        Caffeine.newBuilder().maximumSize(REMEMBERED).build();
  }

  private final Shared shared;

  /**
   * Made by Jdbi, which passes no arguments: {@link Database} names the registry it counts into
   * ({@link #countInto}) as it makes the Jdbi, before any row is read.
   */
  public StoredRows() {
    this(new Shared());
  }

  private StoredRows(Shared shared) {
    this.shared = shared;
  }

  @Override
  public StoredRows createCopy() {
    return new StoredRows(shared);
  }

  public static StoredRows of(StatementContext context) {
    return context.getConfig(StoredRows.class);
  }

  public static StoredRows of(Jdbi jdbi) {
    return jdbi.getConfig(StoredRows.class);
  }

  /** From now on the counts go to {@code metrics} (the node's), where /metrics shows them. */
  public void countInto(MeterRegistry metrics) {
    shared.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * A row of {@code table} read without its {@code field} (a column), which breaks today's rules for
   * {@code reason}; the reason must not hold the stored value (it may be personal).
   */
  public void fieldDropped(String table, String field, String rowId, String reason) {
    report(table, field, rowId, reason, "so it is read without it");
  }

  /** A row of {@code table} left out of what a read returns: its {@code field} cannot be done without. */
  public void rowLeftOut(String table, String field, String rowId, String reason) {
    report(table, field, rowId, reason, "so the row is left out of what is read");
  }

  private void report(String table, String field, String rowId, String reason, String outcome) {
    counter(table, field).increment();
    if (shared.logged.asMap().putIfAbsent(table + "\u0000" + field + "\u0000" + rowId, true)
        == null) {
      log.warn(
          "{} {}: {} breaks today's rules ({}), {}; `tidings migrate` repairs what it can",
          table,
          rowId,
          field,
          reason,
          outcome);
    }
  }

  /** Reads so far that met a row of {@code table} whose {@code field} breaks today's rules. */
  public double counted(String table, String field) {
    return counter(table, field).count();
  }

  private Counter counter(String table, String field) {
    return Counter.builder(UNREADABLE)
        .description("reads of a stored row that breaks today's input rules (an earlier version"
            + " wrote it), by table and column; tidings migrate repairs them")
        .tag("table", table)
        .tag("field", field)
        .register(Objects.requireNonNull(
            shared.metrics,
            "StoredRows counts into the registry Database names; this Jdbi is not Database's"));
  }
}

package dev.tidings.imports;

import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Where one kind's valid rows go during an import: a temporary table named {@value #TABLE} (private to the
 * import's connection, dropped at commit), filled by COPY, checked and merged with set-based SQL.
 * The table must have a {@code line bigint} column (the row's line) and a {@code problem text} column
 * that {@link #check} sets on rows the database rejects.
 */
public interface Staging<T> {
  String TABLE = "import_stage";

  /** The CREATE TEMP TABLE statement. */
  String createTable();

  /** The COPY ... FROM STDIN statement, columns in the order {@link #write} writes them. */
  String copy();

  void write(T row, long line, CopyRowWriter out) throws IOException;

  /** Marks rows that are valid alone but not against the database (set {@code problem}). */
  default void check(Handle handle) {}

  /** Applies the rows without a problem; returns how many changed nothing by design (e.g. replays). */
  long merge(Handle handle, Instant now);
}

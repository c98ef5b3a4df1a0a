package dev.tidings.imports;

import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * Where one kind's valid rows go during an import: chunk tables (one per chunk of rows, named by the
 * importer) filled by COPY, then checked and merged into the real tables with set-based SQL, chunk by chunk
 * in file order, all in the one transaction that makes the import visible. Every chunk table has a
 * {@code line bigint} column (the row's line) and a {@code problem text} column that {@link #check} sets on
 * rows the database rejects. Because earlier chunks are already merged when a later one is checked and
 * merged, checks against "earlier in the file" can look at the real tables.
 */
public interface Staging<T> {
  /** The chunk table's column definitions, including {@code line bigint NOT NULL} and {@code problem text}. */
  String columns();

  /** The columns {@link #write} writes, in order, for {@code COPY table (...) FROM STDIN}. */
  String copyColumns();

  void write(T row, long line, CopyRowWriter out) throws IOException;

  /**
   * The key of which the last row in the file wins (several rows with it in one chunk make the merge pick the
   * last); null when rows have no such key (every row is merged, e.g. events).
   */
  @Nullable String key(T row);

  /** Marks rows of the chunk that are valid alone but not against the database (sets {@code problem}). */
  default void check(Handle handle, String table) {}

  /**
   * Applies the chunk's rows without a problem; {@code duplicateKeys} says whether two rows share a
   * {@link #key}, so the merge must pick the last. Returns how many changed nothing by design (e.g. replays).
   */
  long merge(Handle handle, String table, boolean duplicateKeys, Instant now);
}

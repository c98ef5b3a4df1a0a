package dev.tidings.imports;

import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * Where one kind's valid rows go during an import (see {@link ChunkMerger}). {@link #write} encodes a row as
 * COPY text for {@link #copyColumns()}, which are columns of the real {@link #table()} and of a chunk table.
 * A chunk of new rows is COPYed straight into the real table; any other chunk goes into a temporary chunk table
 * ({@link #columns()} plus {@code line bigint}, the row's line, and {@code problem text}, which {@link #check}
 * sets on rows the database refuses), then is merged. Chunks are written in file order inside one transaction,
 * so when a chunk is checked, the earlier chunks are already in the real tables.
 */
public interface Staging<T> {
  /** The real table that a chunk of new rows is COPYed into. */
  String table();

  /** Column definitions of a chunk table: at least every one of {@link #copyColumns()}. */
  String columns();

  /** The columns {@link #write} writes, in order: columns of the real table and of a chunk table. */
  String copyColumns();

  /** Encodes one row; {@code now} is the import's time (created/updated/received at). */
  void write(T row, Instant now, CopyRowWriter out) throws IOException;

  /**
   * The key of which the last row in the file wins (several rows with it in one chunk make the merge pick the
   * last); null when rows have no such key (every row is merged, e.g. events).
   */
  @Nullable String key(T row);

  /** Marks rows of the chunk table that are valid alone but not against the database (sets {@code problem}). */
  default void check(Handle handle, String chunkTable) {}

  /**
   * Applies the chunk table's rows without a problem; {@code duplicateKeys} says whether two rows share a
   * {@link #key}, so the merge must pick the last. Returns how many changed nothing by design (e.g. replays).
   */
  long merge(Handle handle, String chunkTable, boolean duplicateKeys, Instant now);

  /**
   * Runs once after the last chunk is merged, in the import's transaction, when the import is going to be
   * committed (not when it fails or an all-or-nothing import refuses a row): e.g. a feed's snapshot marks
   * what left the feed. Returns how many rows of the real table it changed.
   */
  default long complete(Handle handle, Instant now) {
    return 0;
  }
}

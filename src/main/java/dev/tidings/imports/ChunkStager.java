package dev.tidings.imports;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * The parsing side of an import: COPYs valid rows into UNLOGGED chunk tables on its own connection and
 * commits each chunk, so the merging connection can see it while the next chunk is parsed. Chunk tables
 * are scratch (their rows are in the file), so their commits need not wait for the disk; the one commit that
 * must be durable is the merge's. Every table it created is dropped by {@link #dropAll}, whatever happened.
 */
final class ChunkStager<T> {
  private final Staging<T> staging;
  private final Handle handle;
  private final String prefix;
  private final int chunkRows;
  private final List<String> created = new ArrayList<>();
  private final Set<String> keys = new HashSet<>();
  private @Nullable PGCopyOutputStream copy;
  private @Nullable CopyRowWriter writer;
  private @Nullable String table;
  private long rows;
  private boolean duplicateKeys;

  ChunkStager(Staging<T> staging, Handle handle, String prefix, int chunkRows) {
    this.staging = staging;
    this.handle = handle;
    this.prefix = prefix;
    this.chunkRows = chunkRows;
  }

  /** Writes one valid row; returns the chunk when this row filled it, otherwise null. */
  @Nullable StagedChunk write(T row, long line) throws IOException, SQLException {
    if (writer == null) open();
    staging.write(row, line, writer);
    writer.endRow();
    rows++;
    String key = staging.key(row);
    if (key != null && !keys.add(key)) duplicateKeys = true;
    return rows >= chunkRows ? finish() : null;
  }

  /** Ends the open chunk, if any: its rows are committed and visible to other connections. */
  @Nullable StagedChunk finish() throws IOException, SQLException {
    if (writer == null || copy == null || table == null) return null;
    writer.flushBuffer();
    copy.endCopy();
    handle.commit();
    var chunk = new StagedChunk(table, rows, duplicateKeys);
    writer = null;
    copy = null;
    table = null;
    rows = 0;
    duplicateKeys = false;
    keys.clear();
    return chunk;
  }

  private void open() throws SQLException {
    table = prefix + "_" + created.size();
    handle.begin();
    handle.execute("SET LOCAL synchronous_commit = off");
    handle.execute("CREATE UNLOGGED TABLE " + table + " (" + staging.columns() + ")");
    created.add(table);
    PGConnection pg = handle.getConnection().unwrap(PGConnection.class);
    copy = new PGCopyOutputStream(pg, "COPY " + table + " (" + staging.copyColumns() + ") FROM STDIN", 256 * 1024);
    writer = new CopyRowWriter(copy);
  }

  /** Abandons the open chunk (its table was never committed). */
  void cancel() {
    try {
      if (copy != null && copy.isActive()) copy.cancelCopy();
    } catch (SQLException ignored) {
      // the connection is broken; the rollback below or closing it discards the chunk
    }
    copy = null;
    writer = null;
    table = null;
    try {
      if (handle.isInTransaction()) handle.rollback();
    } catch (RuntimeException ignored) {
      // as above
    }
  }

  /** Drops every chunk table; call once the merging transaction has ended, or the drop waits for its locks. */
  void dropAll() {
    if (created.isEmpty()) return;
    handle.execute("DROP TABLE IF EXISTS " + String.join(", ", created));
    created.clear();
  }
}

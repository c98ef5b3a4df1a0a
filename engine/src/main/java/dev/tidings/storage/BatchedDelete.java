package dev.tidings.storage;

import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * The expiry most tables need: one statement, written by the table's owner, that deletes at most
 * {@code :batch} rows older than {@code :before} (oldest first, skipping rows others hold), run in a
 * transaction of its own. The owner keeps its SQL; this only runs it.
 */
public record BatchedDelete(Jdbi jdbi, String table, String sql) implements Expiry {
  @Override
  public Removed removeSome(Instant before, int batch) {
    int removed = jdbi.withHandle(handle ->
        handle.createUpdate(sql).bind("before", before).bind("batch", batch).execute());
    return Removed.ofBatch(removed, batch);
  }
}

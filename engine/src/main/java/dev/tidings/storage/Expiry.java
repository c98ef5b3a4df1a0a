package dev.tidings.storage;

import java.time.Instant;

/**
 * How the owner of a table that grows with traffic removes what outlived its lifetime, a bounded
 * step at a time: the retention job calls {@link #removeSome} until it says it is done, pausing
 * between steps so that the removal yields to the work the nodes are there for. Each step is one
 * short transaction, so a node that stops between two steps leaves nothing half done.
 */
public interface Expiry {
  /** The table whose rows it counts: the label of the removal metric, one per table. */
  String table();

  /**
   * Removes at most about {@code batch} rows (or one whole day partition, however many rows it
   * held) that expired before {@code before}.
   */
  Removed removeSome(Instant before, int batch);

  /**
   * What one step removed.
   *
   * @param rows rows of {@link #table()} removed (those of tables that go with it are not counted)
   * @param done nothing more expired before the time asked: the next step would remove nothing
   */
  record Removed(long rows, boolean done) {
    public Removed {
      if (rows < 0) throw new IllegalArgumentException("rows must not be negative, got " + rows);
    }

    /** A step of a batch: done when it removed less than the batch. */
    public static Removed ofBatch(long rows, int batch) {
      return new Removed(rows, rows < batch);
    }
  }
}

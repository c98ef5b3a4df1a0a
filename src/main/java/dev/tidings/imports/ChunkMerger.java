package dev.tidings.imports;

import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;

/**
 * The database side of an import, on its own thread and connection: checks and merges each staged chunk as
 * soon as it is committed, in file order, inside the one transaction that makes the import visible (the
 * caller commits or rolls it back). Merging chunk k while chunk k+1 is parsed is what keeps both the JVM and
 * PostgreSQL busy. At most {@value #QUEUED} chunks wait, so a slow database slows the parser instead of
 * piling chunks up.
 */
final class ChunkMerger<T> implements Callable<ChunkMerger.Totals> {
  static final int QUEUED = 2;
  private static final StagedChunk END = new StagedChunk("", 0, false);

  /** Rows refused by the database checks, rows ignored by the merges, and where the time went. */
  record Totals(long refused, long ignored, long checkNanos, long mergeNanos, long idleNanos) {}

  private final Staging<T> staging;
  private final Handle handle;
  private final Instant now;
  private final ErrorLog errors;
  private final BlockingQueue<StagedChunk> queue = new ArrayBlockingQueue<>(QUEUED);
  private volatile boolean aborted;

  ChunkMerger(Staging<T> staging, Handle handle, Instant now, ErrorLog errors) {
    this.staging = staging;
    this.handle = handle;
    this.now = now;
    this.errors = errors;
  }

  @Override
  public Totals call() throws InterruptedException {
    long refused = 0;
    long ignored = 0;
    long checkNanos = 0;
    long mergeNanos = 0;
    long idleNanos = 0;
    while (true) {
      long waiting = System.nanoTime();
      StagedChunk chunk = queue.take();
      long started = System.nanoTime();
      idleNanos += started - waiting;
      if (aborted) throw new CancellationException("import aborted");
      if (chunk == END) return new Totals(refused, ignored, checkNanos, mergeNanos, idleNanos);
      staging.check(handle, chunk.table());
      refused += collectRefusals(chunk.table());
      long checked = System.nanoTime();
      checkNanos += checked - started;
      ignored += staging.merge(handle, chunk.table(), chunk.duplicateKeys(), now);
      mergeNanos += System.nanoTime() - checked;
    }
  }

  private long collectRefusals(String table) {
    long[] count = {0};
    handle.createQuery("SELECT line, problem FROM " + table + " WHERE problem IS NOT NULL")
        .map((rs, ctx) -> new RowError(rs.getLong(1), rs.getString(2)))
        .forEach(error -> {
          count[0]++;
          errors.add(error.line(), error.reason());
        });
    return count[0];
  }

  /** Hands a committed chunk over, waiting while the queue is full; fails fast if this merger failed. */
  void hand(StagedChunk chunk, Future<Totals> running) throws InterruptedException, ExecutionException {
    while (!queue.offer(chunk, 50, TimeUnit.MILLISECONDS)) {
      if (running.isDone()) running.get();
    }
    if (running.isDone()) running.get();
  }

  /** No more chunks: the merger returns its totals once the queued ones are merged. */
  void finish(Future<Totals> running) throws InterruptedException, ExecutionException {
    hand(END, running);
  }

  /** Stops the merger after its current statement; the caller rolls the transaction back. */
  void abort() {
    aborted = true;
    queue.clear();
    queue.offer(END);
  }
}

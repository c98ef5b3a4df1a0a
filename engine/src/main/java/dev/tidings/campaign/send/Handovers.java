package dev.tidings.campaign.send;

import dev.tidings.mail.Handover;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The ledger's record of each recipient's handover to the transport, written before the point after
 * which the email may have been delivered. Every email pays one durable write there, so the senders'
 * writes are committed in groups: a handover joins the batch gathering while up to {@code
 * maxInFlight} are being written, and the whole batch is one statement and one commit. A write starts
 * when the transport {@linkplain Handover#begin() takes} the email, so its commit (a WAL flush)
 * overlaps the wait for a connection and the transfer; the sender waits on its answer only at {@link
 * Handover#proceed()}, before the end of the data, and never lets an email go before the statement
 * that holds its row has committed. A batch that fails refuses every email in
 * it, and since the statement is all or nothing, none of its rows is handed over. Thread-safe.
 */
final class Handovers {
  static final int MAX_BATCH = 1000;
  static final int MAX_IN_FLIGHT = 2;

  private final Function<Set<Ledger.Claim>, Set<Ledger.Claim>> write;
  private final SendMetrics metrics;
  private final int maxInFlight;
  private final ReentrantLock lock = new ReentrantLock();
  /** Claims waiting for a batch, in arrival order. Guarded by {@link #lock}. */
  private final LinkedHashMap<Ledger.Claim, CompletableFuture<Boolean>> waiting =
      new LinkedHashMap<>();
  /** Batches being written. Guarded by {@link #lock}. */
  private int running;
  /**
   * Platform threads, not virtual ones: every sender waits on these writes, and a virtual writer
   * would queue for a carrier behind the senders' own continuations at each round trip (on a busy
   * node that queue, not the database, set the senders' wait). Idle ones end after a second.
   */
  private final ThreadPoolExecutor writers;

  Handovers(Ledger ledger, SendMetrics metrics) {
    this(ledger::handOver, metrics, MAX_IN_FLIGHT);
  }

  /**
   * @param write records the claims' handovers in one all-or-nothing statement and returns those
   *     still held
   */
  Handovers(
      Function<Set<Ledger.Claim>, Set<Ledger.Claim>> write, SendMetrics metrics, int maxInFlight) {
    if (maxInFlight < 1) throw new IllegalArgumentException("maxInFlight must be at least 1");
    this.write = write;
    this.metrics = metrics;
    this.maxInFlight = maxInFlight;
    this.writers = new ThreadPoolExecutor(
        maxInFlight,
        maxInFlight,
        1,
        TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(),
        Thread.ofPlatform().daemon().name("send-handovers-", 0).factory());
    writers.allowCoreThreadTimeOut(true);
  }

  /** The handover of one claimed recipient: it proceeds only while the claim is still held. */
  Handover of(SendJob job, String subscriberId, long fence) {
    return of(job, subscriberId, fence, null);
  }

  /** As {@link #of(SendJob, String, long)}, keeping {@code note} in the ledger with the handover. */
  Handover of(SendJob job, String subscriberId, long fence, @Nullable String note) {
    return new ClaimHandover(
        new Ledger.Claim(job.campaignId(), job.runId(), subscriberId, fence, note));
  }

  /**
   * Queues the claim's handover for the next batch: true once its row is handed over and committed,
   * false when the claim was no longer held; failed with the batch's failure.
   */
  CompletableFuture<Boolean> submit(Ledger.Claim claim) {
    CompletableFuture<Boolean> answer;
    boolean startWriter = false;
    lock.lock();
    try {
      // a claim already waiting shares that write: it is the same row under the same fence
      answer = waiting.computeIfAbsent(claim, c -> new CompletableFuture<>());
      if (running < maxInFlight) {
        running++;
        startWriter = true;
      }
    } finally {
      lock.unlock();
    }
    if (startWriter) writers.execute(this::drain);
    return answer;
  }

  /** Writes batches until no claim is waiting. */
  private void drain() {
    while (true) {
      var batch = new LinkedHashMap<Ledger.Claim, CompletableFuture<Boolean>>();
      lock.lock();
      try {
        var claims = waiting.entrySet().iterator();
        while (claims.hasNext() && batch.size() < MAX_BATCH) {
          var next = claims.next();
          batch.put(next.getKey(), next.getValue());
          claims.remove();
        }
        if (batch.isEmpty()) {
          running--;
          return;
        }
      } finally {
        lock.unlock();
      }
      writeBatch(batch);
    }
  }

  private void writeBatch(Map<Ledger.Claim, CompletableFuture<Boolean>> batch) {
    long began = System.nanoTime();
    Set<Ledger.Claim> held;
    try {
      held = write.apply(batch.keySet());
    } catch (RuntimeException | Error e) {
      metrics.handoverBatch(batch.size(), System.nanoTime() - began, false);
      batch.values().forEach(answer -> answer.completeExceptionally(e));
      return;
    }
    metrics.handoverBatch(batch.size(), System.nanoTime() - began, true);
    metrics.staleWritesRefused(SendMetrics.StaleWrite.handover, batch.size() - held.size());
    batch.forEach((claim, answer) -> answer.complete(held.contains(claim)));
  }

  /** One email's handover; its transport calls it from one thread at a time. */
  private final class ClaimHandover implements Handover {
    private final Ledger.Claim claim;
    private volatile @Nullable CompletableFuture<Boolean> started;

    ClaimHandover(Ledger.Claim claim) {
      this.claim = claim;
    }

    @Override
    public void begin() {
      started = submit(claim);
    }

    @Override
    public boolean proceed() {
      // each attempt writes afresh: a takeover since the last one must stop this one
      CompletableFuture<Boolean> answer = started;
      started = null;
      if (answer == null) answer = submit(claim);
      long began = System.nanoTime();
      try {
        return answer.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new HandoverFailedException("interrupted waiting for the handover", e);
      } catch (ExecutionException e) {
        throw new HandoverFailedException(
            "the handover could not be recorded: " + e.getCause(), e.getCause());
      } finally {
        metrics.handoverWait(System.nanoTime() - began);
      }
    }
  }

  /** The handover's write failed or was not awaited: the email must not go. */
  static final class HandoverFailedException extends RuntimeException {
    HandoverFailedException(String message, @Nullable Throwable cause) {
      super(message, cause);
    }
  }
}

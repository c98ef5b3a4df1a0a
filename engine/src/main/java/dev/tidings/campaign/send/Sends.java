package dev.tidings.campaign.send;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The send pipeline's port. {@link #start} plans a run on this node and hands its partitions to the
 * workers (any node running the worker role); the rest can be called from any node. Thread-safe.
 */
public interface Sends {

  /**
   * Snapshots {@code recipients} (subscriber ids, each once) into the run's ledger and partitions and
   * queues them. Idempotent per (campaignId, runId): starting a run that exists changes nothing.
   */
  default SendProgress start(SendJob job, Iterator<String> recipients) {
    return startPlanned(job, map(recipients, PlannedSend::now));
  }

  /**
   * As {@link #start}, each recipient with the time their email may go ({@link PlannedSend}): those
   * due later are grouped into partitions per time that are queued only when due, so the run's rate
   * and priority hold for each and it completes when the last is sent.
   */
  SendProgress startPlanned(SendJob job, Iterator<PlannedSend> recipients);

  private static <A, B> Iterator<B> map(Iterator<A> from, Function<A, B> each) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return from.hasNext();
      }

      @Override
      public B next() {
        return each.apply(from.next());
      }
    };
  }

  /** One subscriber, now, ahead of bulk partitions (a welcome, a price drop). */
  void trigger(SendJob job, String subscriberId);

  Optional<SendProgress> progress(long campaignId, long runId);

  /** Workers stop taking this run's recipients; what is in flight finishes. */
  void pause(long campaignId, long runId);

  void resume(long campaignId, long runId);

  /** No further email of this run is sent; the unsent recipients count as skipped. */
  void cancel(long campaignId, long runId);

  /**
   * The run's recipients by the time they are planned for (a run sent at once: one row, its start),
   * earliest first.
   */
  default List<Map.Entry<Instant, Long>> plannedByTime(long campaignId, long runId) {
    return List.of();
  }

  /**
   * Reports what happened to a sent email outside the send itself (a one-click unsubscribe) with the
   * send outcomes, for the delivery capability.
   */
  void report(SendReceipt receipt);
}

package dev.tidings.campaign.send;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the send consumers do, for Prometheus: {@code tidings_send_emails_total{outcome}} (sent,
 * deferred for each 4xx answer, failed, unknown, skipped), every outcome registered at 0 so an alert
 * can compare them from the start; {@code tidings_send_partitions_in_flight}, the partitions this
 * node is working on now; {@code tidings_send_sweeper_actions_total{action}}, what the stuck-partition
 * sweeper did (runs completed whose countdown had reached zero, partitions queued again because their
 * run stalled or because they showed no progress); {@code tidings_send_runs_running}, the bulk runs
 * under way in the whole cluster (read from the ledger at each scrape), which beside a flat rate of
 * sent emails tells a campaign that stopped progressing. The handovers' group commit: {@code
 * tidings_send_handover_batch_size}, the handovers one statement wrote; {@code
 * tidings_send_handover_write_seconds{result}}, each statement's time (ok or failed); {@code
 * tidings_send_handover_wait_seconds}, how long a sender waited for its handover at the end of the
 * message data, holding its SMTP connection (the part of the write the data did not hide). {@code
 * tidings_send_stale_writes_refused_total{write}}: writes of a worker whose partition was taken over
 * (it was stopped or cut off past its lease) that the fence refused, by write: a chunk's claim, a
 * recipient's handover to the transport, a recipient's mark, the lease's renewal, the partition's
 * count-down; each refused handover is an email that was not sent twice.
 */
final class SendMetrics {
  static final String EMAILS = "tidings_send_emails";
  static final String IN_FLIGHT = "tidings_send_partitions_in_flight";
  static final String SWEEPER = "tidings_send_sweeper_actions";
  static final String RUNNING = "tidings_send_runs_running";
  static final String HANDOVER_BATCH = "tidings_send_handover_batch_size";
  static final String HANDOVER_WRITE = "tidings_send_handover_write_seconds";
  static final String HANDOVER_WAIT = "tidings_send_handover_wait_seconds";
  static final String STALE_WRITES = "tidings_send_stale_writes_refused";

  /** The writes a superseded fence refuses. */
  enum StaleWrite {
    claim,
    handover,
    mark,
    renew,
    finish
  }

  enum SweeperAction {
    /** A run whose countdown had reached zero was completed. */
    completed,
    /** Every unfinished partition of a run that had not moved was queued again. */
    requeued_stalled,
    /** Partitions that showed no progress were queued again. */
    requeued_stuck,
    /** Partitions planned for later (a send-time plan) were queued once due. */
    released_due
  }

  private final Map<SendReceipt.Status, Counter> emails = new EnumMap<>(SendReceipt.Status.class);
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Map<SweeperAction, Counter> sweeper = new EnumMap<>(SweeperAction.class);
  private final DistributionSummary handoverBatch;
  private final Timer handoverWritten;
  private final Timer handoverFailed;
  private final Timer handoverWait;
  private final Map<StaleWrite, Counter> staleWrites = new EnumMap<>(StaleWrite.class);

  SendMetrics(MeterRegistry registry) {
    for (StaleWrite write : StaleWrite.values())
      staleWrites.put(
          write,
          Counter.builder(STALE_WRITES)
              .description(
                  "Writes of a worker whose partition was taken over, refused by the fence")
              .tag("write", write.name())
              .register(registry));
    for (SweeperAction action : SweeperAction.values())
      sweeper.put(
          action,
          Counter.builder(SWEEPER)
              .description("What the stuck-partition sweeper did (partitions for requeued_*)")
              .tag("action", action.name())
              .register(registry));
    for (SendReceipt.Status status : SendReceipt.Status.values())
      emails.put(
          status,
          Counter.builder(EMAILS)
              .description("Campaign emails by send outcome (deferred: each 4xx answer)")
              .tag("outcome", status.name().toLowerCase(Locale.ROOT))
              .register(registry));
    Gauge.builder(IN_FLIGHT, inFlight, AtomicInteger::get)
        .description("Partitions of campaign runs this node is sending now")
        .register(registry);
    handoverBatch = DistributionSummary.builder(HANDOVER_BATCH)
        .description("Handovers to the transport recorded by one ledger statement")
        .register(registry);
    handoverWritten = handoverWrite(registry, "ok");
    handoverFailed = handoverWrite(registry, "failed");
    handoverWait = Timer.builder(HANDOVER_WAIT)
        .description("Time a sender waited for its handover's write at the end of the message data")
        .register(registry);
  }

  private static Timer handoverWrite(MeterRegistry registry, String result) {
    return Timer.builder(HANDOVER_WRITE)
        .description("Time of one ledger statement recording a batch of handovers")
        .tag("result", result)
        .register(registry);
  }

  void handoverBatch(int size, long nanos, boolean written) {
    handoverBatch.record(size);
    (written ? handoverWritten : handoverFailed).record(nanos, TimeUnit.NANOSECONDS);
  }

  void staleWritesRefused(StaleWrite write, int count) {
    if (count > 0) Objects.requireNonNull(staleWrites.get(write)).increment(count);
  }

  void handoverWait(long nanos) {
    handoverWait.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Reports the bulk runs under way from {@code ledger}, read when scraped (NaN when unreadable). */
  static void registerRunning(MeterRegistry registry, Ledger ledger) {
    Gauge.builder(RUNNING, ledger, l -> l.runningBulkRuns().size())
        .description("Bulk campaign runs under way in the cluster")
        .strongReference(true)
        .register(registry);
  }

  void swept(SweeperAction action, int count) {
    Objects.requireNonNull(sweeper.get(action)).increment(count);
  }

  void reported(List<SendReceipt> receipts) {
    for (SendReceipt receipt : receipts)
      Objects.requireNonNull(emails.get(receipt.status())).increment();
  }

  void partitionStarted() {
    inFlight.incrementAndGet();
  }

  void partitionEnded() {
    inFlight.decrementAndGet();
  }
}

package dev.tidings.campaign.send;

import dev.tidings.coordination.Coordination;
import dev.tidings.events.EventOutbox;
import dev.tidings.mail.MailTransport;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * The send pipeline of one node: {@link #sends()} plans and steers runs (any role); {@link
 * #consumers} works them (worker and demo roles), with the sweeper that hands stuck partitions to
 * another worker. Closing it stops the sweepers; the consumers stop with the node's subscriptions.
 */
public final class SendPipeline implements AutoCloseable {
  private final Ledger ledger;
  private final RunStates states;
  private final Coordination coordination;
  private final WorkQueue queue;
  private final SendOptions options;
  private final InstantSource clock;
  private final Topic<SendTask> tasks;
  private final Topic<SendReceipt> receipts;
  private final LedgerSends sends;
  private final MeterRegistry metrics;
  private final List<StuckPartitionSweeper> sweepers = new ArrayList<>();

  /** @param metrics where the consumers and the sweeps count send outcomes ({@link SendMetrics}) */
  public SendPipeline(
      Jdbi jdbi,
      WorkQueue queue,
      Coordination coordination,
      SendOptions options,
      InstantSource clock,
      MeterRegistry metrics) {
    this(jdbi, queue, coordination, options, EventOutbox.ON, clock, metrics);
  }

  /** As above, telling a run's hand-over and completion to {@code outbox} (benchmarks turn it off). */
  public SendPipeline(
      Jdbi jdbi,
      WorkQueue queue,
      Coordination coordination,
      SendOptions options,
      EventOutbox outbox,
      InstantSource clock,
      MeterRegistry metrics) {
    this.ledger = new Ledger(jdbi, outbox);
    this.states = new RunStates(ledger, options.stateCacheTtl());
    this.coordination = coordination;
    this.queue = queue;
    this.options = options;
    this.clock = clock;
    this.metrics = metrics;
    this.tasks = SendTopics.tasks(options);
    this.receipts = SendTopics.receipts(options);
    this.sends = new LedgerSends(
        ledger, states, coordination.countdown(), queue, tasks, receipts, options, clock);
  }

  public Sends sends() {
    return sends;
  }

  public SendOptions options() {
    return options;
  }

  /** The receipts every send outcome becomes, for the delivery capability to consume. */
  public Topic<SendReceipt> receipts() {
    return receipts;
  }

  /**
   * The send queue's consumers, sending through {@code mail} what {@code composer} writes and counting
   * outcomes in the pipeline's metrics.
   */
  public ConsumerGroup consumers(Composer composer, MailTransport mail) {
    var sendMetrics = new SendMetrics(metrics);
    SendMetrics.registerRunning(metrics, ledger);
    var worker = new SendWorker(
        ledger,
        states,
        coordination.countdown(),
        new Pacer(coordination.rateLimiter()),
        new RecipientSender(composer, mail, options, clock),
        queue,
        receipts,
        options,
        clock,
        sendMetrics);
    return consumers -> {
      queue.declare(receipts.spec());
      consumers.consume(tasks, options.slots(), 1, worker);
      synchronized (sweepers) {
        sweepers.add(new StuckPartitionSweeper(
            ledger,
            coordination.countdown(),
            queue,
            tasks,
            options.leaseTtl(),
            sendMetrics,
            clock));
      }
    };
  }

  /**
   * Queues stuck partitions again, and partitions planned for later that are due, now instead of at
   * the next sweep; for tests and operators.
   */
  public int sweepNow() {
    return new StuckPartitionSweeper(
            ledger,
            coordination.countdown(),
            queue,
            tasks,
            options.leaseTtl(),
            new SendMetrics(metrics),
            clock)
        .sweepOnceAndClose();
  }

  @Override
  public void close() {
    synchronized (sweepers) {
      sweepers.forEach(StuckPartitionSweeper::close);
      sweepers.clear();
    }
  }
}

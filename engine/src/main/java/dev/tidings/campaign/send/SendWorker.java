package dev.tidings.campaign.send;

import dev.tidings.coordination.Countdown;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Works one message of the send queue. A partition: lease it, settle what an earlier lease left
 * claimed, then chunk by chunk take the rate's permits, claim recipients in the ledger under the
 * lease's fence, send, mark the replies and renew the lease; at the end count the partition down.
 * A triggered send: claim its one recipient, send, mark. Thread-safe; one per node.
 */
final class SendWorker implements Topic.Handler<SendTask> {
  private static final Logger log = LoggerFactory.getLogger(SendWorker.class);

  private final Ledger ledger;
  private final RunStates states;
  private final Countdown countdown;
  private final Pacer pacer;
  private final RecipientSender sender;
  private final Handovers handovers;
  private final WorkQueue queue;
  private final Topic<SendReceipt> receipts;
  private final SendOptions options;
  private final InstantSource clock;

  private final SendMetrics metrics;

  SendWorker(
      Ledger ledger,
      RunStates states,
      Countdown countdown,
      Pacer pacer,
      RecipientSender sender,
      WorkQueue queue,
      Topic<SendReceipt> receipts,
      SendOptions options,
      InstantSource clock,
      SendMetrics metrics) {
    this.ledger = ledger;
    this.metrics = metrics;
    this.states = states;
    this.countdown = countdown;
    this.pacer = pacer;
    this.sender = sender;
    this.handovers = new Handovers(ledger, metrics);
    this.queue = queue;
    this.receipts = receipts;
    this.options = options;
    this.clock = clock;
  }

  static String countdownName(long campaignId, long runId) {
    return "send:" + campaignId + ":" + runId;
  }

  @Override
  public Disposition handle(Topic.Received<SendTask> received) throws InterruptedException {
    metrics.partitionStarted();
    SendTask task = received.value();
    // every line logged about this task carries its campaign and run as fields of their own
    try (var campaign = MDC.putCloseable(LogFields.CAMPAIGN, Long.toString(task.campaignId()));
        var run = MDC.putCloseable(LogFields.RUN, Long.toString(task.runId()))) {
      return work(received);
    } finally {
      metrics.partitionEnded();
    }
  }

  private Disposition work(Topic.Received<SendTask> received) throws InterruptedException {
    SendTask task = received.value();
    String state = states.state(task.campaignId(), task.runId());
    if (state.equals(Ledger.PLANNING)) return Disposition.retry("the run is still being planned");
    // a triggered send has no partition for resume to queue again: it waits on the queue instead
    if (task.subscriberId() != null && state.equals(SendState.PAUSED.name()))
      return Disposition.retry("the run is paused");
    // a paused run's partitions are queued again when it resumes; a finished one has nothing left
    if (!state.equals(SendState.RUNNING.name())) return Disposition.ACK;
    String subscriberId = task.subscriberId();
    return subscriberId == null ? partition(task) : triggered(task, subscriberId);
  }

  private Disposition partition(SendTask task) throws InterruptedException {
    SendJob job = task.job();
    long before = System.nanoTime();
    Optional<Countdown.Lease> claimed = countdown.claim(
        countdownName(task.campaignId(), task.runId()),
        task.partition(),
        UUID.randomUUID().toString(),
        options.leaseTtl());
    // done, or held by a live lease: if its holder dies, the sweeper queues the partition again
    if (claimed.isEmpty()) return Disposition.ACK;
    var lease = new HeldLease(countdown, claimed.get(), options.leaseTtl(), before);
    Optional<List<String>> orphans =
        ledger.takePartition(task.campaignId(), task.runId(), task.partition(), lease.fence());
    if (orphans.isEmpty()) return Disposition.ACK;
    if (!orphans.get().isEmpty()) {
      log.warn(
          "partition {} of run {}/{}: {} recipients were handed to the transport when their worker"
              + " lost the lease; recorded as unknown",
          task.partition(),
          task.campaignId(),
          task.runId(),
          orphans.get().size());
      publish(orphans.get().stream()
          .map(id -> new Ledger.Outcome(
              id,
              Ledger.Mark.unknown,
              "its worker lost the lease after handing it to the transport"))
          .map(outcome -> RecipientSender.receipt(job, outcome, clock))
          .toList());
      // what the lost worker could not complete after those sends (a digest's marking) is done here
      ledger
          .handoverNotes(task.campaignId(), task.runId(), orphans.get())
          .forEach((subscriberId, note) -> sender.sentByLostWorker(job, subscriberId, note));
    }
    int chunkSize = Math.min(options.chunkSize(), Pacer.burst(job));
    // a chunk's receipts and marks are written while the next chunk sends: the slot's senders would
    // otherwise wait for two round trips per chunk; one write at most is outstanding
    var recording = new Recording();
    try {
      while (true) {
        if (!running(job)) return stopped(task, job, lease, "the lease expired");
        if (!pacer.acquire(job, chunkSize, () -> lease.keepAlive() && running(job))) {
          return running(job)
              ? lost(task, "the lease expired while waiting for the rate")
              : stopped(task, job, lease, "the lease expired while waiting for the rate");
        }
        List<String> chunk = ledger.claim(
            task.campaignId(), task.runId(), task.partition(), lease.fence(), chunkSize);
        if (chunk == null) {
          metrics.staleWritesRefused(SendMetrics.StaleWrite.claim, 1);
          return lost(task, "its fence was superseded");
        }
        if (chunk.isEmpty()) break;
        List<Ledger.Outcome> outcomes = sendChunk(job, chunk, lease, recording);
        recording.start(() -> record(job, lease.fence(), outcomes));
        if (!lease.renew()) {
          if (lease.refused()) metrics.staleWritesRefused(SendMetrics.StaleWrite.renew, 1);
          return lost(task, "the lease expired");
        }
      }
    } finally {
      recording.awaitLast();
    }
    return finish(task, lease);
  }

  /**
   * The run stopped under the partition, which this worker may also have lost meanwhile (it was
   * frozen past its lease while the run completed, say): a lost lease is said whatever the run's
   * state, so an operator sees every worker that stalled past its TTL.
   */
  private Disposition stopped(SendTask task, SendJob job, HeldLease lease, String whyLost) {
    if (!lease.valid()) lost(task, whyLost);
    return stopped(job);
  }

  /**
   * The run stopped under the partition. If it was cancelled, this takeover may just have planned
   * its predecessor's recipients again after the cancel skipped the rest: they are skipped too.
   */
  private Disposition stopped(SendJob job) {
    if (states.state(job.campaignId(), job.runId()).equals(SendState.CANCELLED.name()))
      LedgerSends.skipUnsent(ledger, queue, receipts, job, clock);
    return Disposition.ACK;
  }

  /** The one chunk write a partition may have outstanding; its failure surfaces at the next step. */
  private static final class Recording {
    private @Nullable Thread writer;
    private final AtomicReference<@Nullable RuntimeException> failure = new AtomicReference<>();

    void start(Runnable write) throws InterruptedException {
      awaitLast();
      writer = Thread.ofVirtual().name("send-record").start(() -> {
        try {
          write.run();
        } catch (RuntimeException e) {
          failure.set(e);
        }
      });
    }

    /** Waits for the outstanding write; throws what it failed with. */
    void awaitLast() throws InterruptedException {
      Thread last = writer;
      if (last != null) last.join();
      writer = null;
      RuntimeException failed = failure.getAndSet(null);
      if (failed != null) throw failed;
    }
  }

  private Disposition finish(SendTask task, HeldLease lease) {
    switch (countdown.finish(lease.lease())) {
      case Countdown.Finish.Done done -> {
        ledger.partitionFinished(task.campaignId(), task.runId(), task.partition(), lease.fence());
        if (done.remaining() == 0) {
          Optional<String> completed = ledger.complete(task.campaignId(), task.runId());
          states.forget(task.campaignId(), task.runId());
          completed.ifPresent(
              state -> log.info("run {}/{} is {}", task.campaignId(), task.runId(), state));
        }
      }
      case Countdown.Finish.Refused refused -> {
        metrics.staleWritesRefused(SendMetrics.StaleWrite.finish, 1);
        log.warn(
            "partition {} of run {}/{} was not counted down: {}",
            task.partition(),
            task.campaignId(),
            task.runId(),
            refused.reason());
      }
    }
    return Disposition.ACK;
  }

  private Disposition lost(SendTask task, String why) {
    log.warn(
        "partition {} of run {}/{}: stopped, {}; another worker takes it over",
        task.partition(),
        task.campaignId(),
        task.runId(),
        why);
    return Disposition.ACK;
  }

  /** Sends one chunk with up to {@code sendersPerSlot} emails in flight. */
  private List<Ledger.Outcome> sendChunk(
      SendJob job, List<String> chunk, HeldLease lease, Recording recording)
      throws InterruptedException {
    BooleanSupplier maySend = () -> lease.valid() && running(job);
    List<SendReceipt> deferrals = Collections.synchronizedList(new ArrayList<>());
    Consumer<SendReceipt> onDeferral = deferrals::add;
    int senders = Math.min(options.sendersPerSlot(), chunk.size());
    var results = new Ledger.Outcome[chunk.size()];
    var failure = new AtomicReference<@Nullable RuntimeException>();
    var threads = new ArrayList<Thread>(senders);
    for (int s = 0; s < senders; s++) {
      int first = s;
      threads.add(Thread.ofVirtual().name("send-" + job.campaignId() + "-" + s).start(() -> {
        for (int i = first; i < results.length; i += senders) {
          try {
            results[i] = sendOrHandBack(job, chunk.get(i), lease.fence(), maySend, onDeferral);
          } catch (InterruptedException e) {
            results[i] = new Ledger.Outcome(chunk.get(i), Ledger.Mark.planned, "");
            Thread.currentThread().interrupt();
          } catch (RuntimeException e) {
            results[i] = new Ledger.Outcome(chunk.get(i), Ledger.Mark.planned, "");
            failure.compareAndSet(null, e); // the first failure is the one reported
          }
        }
      }));
    }
    for (Thread thread : threads) thread.join();
    List<Ledger.Outcome> outcomes = List.of(results);
    RuntimeException failed = failure.get();
    if (failed != null) {
      // record what was sent and hand the rest back before the partition is tried again
      publish(deferrals);
      recording.awaitLast();
      record(job, lease.fence(), outcomes);
      throw failed;
    }
    publish(deferrals);
    return outcomes;
  }

  private Ledger.Outcome sendOrHandBack(
      SendJob job,
      String subscriberId,
      long fence,
      BooleanSupplier maySend,
      Consumer<SendReceipt> onDeferral)
      throws InterruptedException {
    if (!maySend.getAsBoolean()) {
      return states.state(job.campaignId(), job.runId()).equals(SendState.CANCELLED.name())
          ? new Ledger.Outcome(subscriberId, Ledger.Mark.skipped, "the run was cancelled")
          : new Ledger.Outcome(subscriberId, Ledger.Mark.planned, "");
    }
    return sender.send(
        job,
        subscriberId,
        maySend,
        note -> handovers.of(job, subscriberId, fence, note),
        onDeferral);
  }

  private Disposition triggered(SendTask task, String subscriberId) throws InterruptedException {
    SendJob job = task.job();
    Optional<Long> claimed = ledger.claimTriggered(task.campaignId(), task.runId(), subscriberId);
    if (claimed.isEmpty()) {
      // delivered again: an earlier worker sent it, or died after handing it over
      if (ledger.settleTriggered(
          task.campaignId(), task.runId(), subscriberId, options.leaseTtl())) {
        publish(List.of(RecipientSender.receipt(
            job,
            new Ledger.Outcome(
                subscriberId,
                Ledger.Mark.unknown,
                "its worker stopped after handing it to the transport"),
            clock)));
        ledger
            .handoverNotes(task.campaignId(), task.runId(), List.of(subscriberId))
            .forEach((id, note) -> sender.sentByLostWorker(job, id, note));
        return Disposition.ACK;
      }
      // handed over less than a lease ago: its worker may still await the reply, or have died just
      // now (RabbitMQ redelivers a dead consumer's message at once). No other delivery will come to
      // settle it, so this one comes back until the worker marks it or the lease has passed
      if (ledger
          .recipientState(task.campaignId(), task.runId(), subscriberId)
          .equals(Optional.of("handed_over")))
        return Disposition.retry("handed over less than a lease ago; settled once it is older");
      return Disposition.ACK;
    }
    long fence = claimed.get();
    long deadline = System.nanoTime() + options.leaseTtl().toNanos();
    pacer.acquire(job, 1, () -> System.nanoTime() < deadline);
    var outcome = sendOrHandBack(job, subscriberId, fence, () -> running(job), this::publishOne);
    record(job, fence, List.of(outcome));
    // handed back while the run still runs: a newer claim of this trigger sends it instead
    if (outcome.mark() == Ledger.Mark.planned && !running(job))
      return Disposition.retry("the run is paused");
    return Disposition.ACK;
  }

  /**
   * Publishes the outcomes' receipts, then marks them in the ledger. In this order a worker that dies
   * in between loses no receipt (the takeover then records its recipients as unknown, which the
   * delivery capability's forward-only statuses ignore after SENT); and every receipt is true even
   * when the mark is refused, since a handover refused by the ledger sends nothing.
   */
  private void record(SendJob job, long fence, List<Ledger.Outcome> outcomes) {
    publish(RecipientSender.receipts(job, outcomes, clock));
    int recorded = ledger.mark(job.campaignId(), job.runId(), fence, outcomes).size();
    metrics.staleWritesRefused(SendMetrics.StaleWrite.mark, outcomes.size() - recorded);
  }

  private boolean running(SendJob job) {
    return states.state(job.campaignId(), job.runId()).equals(SendState.RUNNING.name());
  }

  private void publishOne(SendReceipt receipt) {
    publish(List.of(receipt));
  }

  private void publish(List<SendReceipt> batch) {
    if (batch.isEmpty()) return;
    receipts.publishAll(queue, batch, 1);
    metrics.reported(batch);
  }
}

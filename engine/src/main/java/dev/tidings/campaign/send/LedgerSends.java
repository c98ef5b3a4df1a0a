package dev.tidings.campaign.send;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.coordination.Countdown;
import dev.tidings.message.MessageId;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@link Sends} over the ledger, the countdown and the work queue. Planning writes the recipients in
 * set-based batches and only then lets workers in (the run leaves PLANNING last), so a start that
 * died half way is finished by starting again. Thread-safe.
 */
final class LedgerSends implements Sends {
  private static final int PLAN_BATCH = 5_000;
  private static final int PUBLISH_BATCH = 1_000;
  private static final int CANCEL_BATCH = 1_000;
  private static final Duration COUNTDOWN_RETENTION = Duration.ofDays(30);

  private final Ledger ledger;
  private final RunStates states;
  private final Countdown countdown;
  private final WorkQueue queue;
  private final Topic<SendTask> tasks;
  private final Topic<SendReceipt> receipts;
  private final SendOptions options;
  private final InstantSource clock;
  private final Cache<List<Long>, Sample> samples =
      Caffeine.newBuilder().maximumSize(10_000).build();

  private record Sample(long atNanos, long done) {}

  LedgerSends(
      Ledger ledger,
      RunStates states,
      Countdown countdown,
      WorkQueue queue,
      Topic<SendTask> tasks,
      Topic<SendReceipt> receipts,
      SendOptions options,
      InstantSource clock) {
    this.ledger = ledger;
    this.states = states;
    this.countdown = countdown;
    this.queue = queue;
    this.tasks = tasks;
    this.receipts = receipts;
    this.options = options;
    this.clock = clock;
  }

  @Override
  public SendProgress startPlanned(SendJob job, Iterator<PlannedSend> recipients) {
    boolean created = ledger.createRun(job, true);
    var existing = ledger.run(job.campaignId(), job.runId()).orElseThrow();
    if (!existing.bulk())
      throw new IllegalArgumentException(
          "run " + job.runId() + " of campaign " + job.campaignId() + " holds triggered sends");
    if (!created && !existing.state().equals(Ledger.PLANNING)) return progress(existing);
    List<@Nullable Instant> notBefore = plan(job, recipients);
    int partitions = notBefore.size();
    if (partitions > 1) ledger.analyze();
    if (partitions > 0) {
      ledger.partitions(job.campaignId(), job.runId(), notBefore);
      countdown.start(
          SendWorker.countdownName(job.campaignId(), job.runId()),
          partitions,
          "run:" + job.campaignId() + ":" + job.runId(),
          COUNTDOWN_RETENTION);
      queue.declare(tasks.spec());
      queue.declare(receipts.spec());
    }
    ledger.running(job.campaignId(), job.runId(), partitions);
    // released only once running: the partitions due now go at once, the sweep queues the others
    if (partitions > 0)
      publish(job, ledger.release(job.campaignId(), job.runId(), clock.instant()));
    if (partitions == 0) ledger.complete(job.campaignId(), job.runId());
    states.forget(job.campaignId(), job.runId());
    return progress(job.campaignId(), job.runId()).orElseThrow();
  }

  /** A partition being filled: its number and how many recipients it holds so far. */
  private static final class Filling {
    final int part;
    int size;

    Filling(int part) {
      this.part = part;
    }
  }

  /**
   * Writes the ledger; returns each partition's not-before time (null: at once), by partition number.
   * Recipients due at the same time share partitions, so a partition becomes due as a whole.
   */
  private List<@Nullable Instant> plan(SendJob job, Iterator<PlannedSend> recipients) {
    var ids = new ArrayList<String>(PLAN_BATCH);
    var parts = new ArrayList<Integer>(PLAN_BATCH);
    var cohorts = new ArrayList<@Nullable Integer>(PLAN_BATCH);
    List<@Nullable Instant> notBefore = new ArrayList<>();
    Map<Optional<Instant>, Filling> filling = new HashMap<>();
    while (recipients.hasNext()) {
      PlannedSend recipient = recipients.next();
      String id = recipient.subscriberId();
      // the id's rule is MessageId's: refuse one it cannot carry before anything is queued
      new MessageId(job.campaignId(), job.runId(), id);
      Filling part = filling.get(recipient.notBefore());
      if (part == null || part.size == options.partitionSize()) {
        part = new Filling(notBefore.size());
        notBefore.add(recipient.notBefore().orElse(null));
        filling.put(recipient.notBefore(), part);
      }
      part.size++;
      ids.add(id);
      parts.add(part.part);
      cohorts.add(recipient.cohort().code());
      if (ids.size() == PLAN_BATCH) {
        ledger.plan(job.campaignId(), job.runId(), ids, parts, cohorts);
        ids.clear();
        parts.clear();
        cohorts.clear();
      }
    }
    if (!ids.isEmpty()) ledger.plan(job.campaignId(), job.runId(), ids, parts, cohorts);
    return notBefore;
  }

  private void publish(SendJob job, List<Integer> partitions) {
    for (int from = 0; from < partitions.size(); from += PUBLISH_BATCH) {
      var batch = partitions.subList(from, Math.min(partitions.size(), from + PUBLISH_BATCH));
      tasks.publishAll(
          queue,
          batch.stream().map(part -> SendTask.partition(job, part)).toList(),
          job.priority());
    }
  }

  @Override
  public void trigger(SendJob job, String subscriberId) {
    new MessageId(job.campaignId(), job.runId(), subscriberId);
    ledger.createRun(job, false);
    var run = ledger.run(job.campaignId(), job.runId()).orElseThrow();
    if (run.bulk())
      throw new IllegalArgumentException("run " + job.runId() + " of campaign " + job.campaignId()
          + " is a bulk run; triggered sends need a run of their own");
    // a recipient still planned was added by a caller that may have died before queueing its task:
    // a
    // task queued twice is claimed once
    if (!ledger.addTriggered(job.campaignId(), job.runId(), subscriberId)
        && !ledger
            .recipientState(job.campaignId(), job.runId(), subscriberId)
            .equals(Optional.of(Ledger.Mark.planned.name()))) return;
    queue.declare(tasks.spec());
    queue.declare(receipts.spec());
    tasks.publish(queue, SendTask.triggered(job, subscriberId), SendJob.TRIGGERED_PRIORITY);
  }

  @Override
  public Optional<SendProgress> progress(long campaignId, long runId) {
    return ledger.run(campaignId, runId).map(this::progress);
  }

  private SendProgress progress(Ledger.Run run) {
    SendState state =
        run.state().equals(Ledger.PLANNING) ? SendState.RUNNING : SendState.valueOf(run.state());
    long done = run.sent() + run.failed() + run.unknown() + run.skipped();
    Instant finished = run.finishedAt();
    return new SendProgress(
        run.job(),
        state,
        run.planned(),
        run.sent(),
        run.failed(),
        run.unknown(),
        run.skipped(),
        run.startedAt(),
        Optional.ofNullable(finished),
        recentRate(run, done, finished));
  }

  /**
   * Emails per second since this node last answered for the run (a progress bar asks every second or
   * so), else since the run began.
   */
  private double recentRate(Ledger.Run run, long done, @Nullable Instant finished) {
    long now = System.nanoTime();
    var key = List.of(run.campaignId(), run.runId());
    Sample last = samples.asMap().put(key, new Sample(now, done));
    if (last != null && now - last.atNanos() > 200_000_000L && finished == null) {
      return Math.max(0, done - last.done()) / ((now - last.atNanos()) / 1e9);
    }
    Instant end = finished != null ? finished : clock.instant();
    double seconds = Duration.between(run.startedAt(), end).toMillis() / 1000.0;
    return seconds <= 0 ? 0 : done / seconds;
  }

  @Override
  public List<Map.Entry<Instant, Long>> plannedByTime(long campaignId, long runId) {
    return ledger.plannedByTime(campaignId, runId);
  }

  @Override
  public void pause(long campaignId, long runId) {
    ledger.changeState(campaignId, runId, List.of("RUNNING"), "PAUSED");
    states.forget(campaignId, runId);
  }

  @Override
  public void resume(long campaignId, long runId) {
    boolean resumed = ledger.changeState(campaignId, runId, List.of("PAUSED"), "RUNNING");
    states.forget(campaignId, runId);
    if (!resumed) return;
    var run = ledger.run(campaignId, runId).orElseThrow();
    if (run.bulk()) {
      // workers dropped the paused run's messages; every unfinished partition that was due goes
      // back on the queue, and those that fell due while it was paused with them
      publish(run.job(), ledger.unfinishedPartitions(campaignId, runId));
      publish(run.job(), ledger.release(campaignId, runId, clock.instant()));
    }
  }

  @Override
  public void report(SendReceipt receipt) {
    queue.declare(receipts.spec());
    receipts.publish(queue, receipt, 1);
  }

  @Override
  public void cancel(long campaignId, long runId) {
    ledger.changeState(
        campaignId, runId, List.of("RUNNING", "PAUSED", Ledger.PLANNING), "CANCELLED");
    states.forget(campaignId, runId);
    var run = ledger.run(campaignId, runId);
    if (run.isEmpty() || !run.get().state().equals("CANCELLED")) return;
    queue.declare(receipts.spec());
    skipUnsent(ledger, queue, receipts, run.get().job(), clock);
  }

  /**
   * Skips every planned recipient of a cancelled run and reports them. A worker calls it too when it
   * finds the run cancelled after a takeover planned its predecessor's recipients again.
   */
  static void skipUnsent(
      Ledger ledger,
      WorkQueue queue,
      Topic<SendReceipt> receipts,
      SendJob job,
      InstantSource clock) {
    while (true) {
      List<String> skipped =
          ledger.skipPlanned(job.campaignId(), job.runId(), CANCEL_BATCH, "the run was cancelled");
      if (skipped.isEmpty()) return;
      receipts.publishAll(
          queue,
          skipped.stream()
              .map(id -> new Ledger.Outcome(id, Ledger.Mark.skipped, "the run was cancelled"))
              .map(outcome -> RecipientSender.receipt(job, outcome, clock))
              .toList(),
          1);
    }
  }
}

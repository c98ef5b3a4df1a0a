package dev.tidings.campaign.send;

import dev.tidings.coordination.Countdown;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a stuck partition is taken over. Every worker node looks, every half lease, for partitions of
 * running runs whose lease expired without being finished (the countdown's {@code stuck}) and queues
 * them again; whichever worker gets the message claims a new lease, which raises the fence, so the
 * stale worker can neither send nor count down. Queueing a partition twice is harmless: the second
 * claim is refused. The queue's own redelivery (a dead RabbitMQ consumer, the queue tables'
 * visibility timeout) cannot do this alone, since a stopped worker keeps its message but not its
 * lease. The sweep also completes a run whose last finisher died between counting down and
 * completing it, and queues again every unfinished partition of a run that has not moved for ten
 * leases: a partition nobody ever leased is not stuck to the countdown, and if its message is lost (a
 * purged queue, a broker that lost its disk) nothing else would bring it back. It is also what queues a
 * partition planned for later (send-time optimisation) once it is due: the ledger holds the plan, so
 * a restart loses none of it, and the release is one conditional update, so one node queues it.
 */
final class StuckPartitionSweeper implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StuckPartitionSweeper.class);

  private final Ledger ledger;
  private final Countdown countdown;
  private final WorkQueue queue;
  private final Topic<SendTask> tasks;
  private final Duration every;
  private final Duration stall;
  private final SendMetrics metrics;
  private final InstantSource clock;
  private final Thread thread;

  StuckPartitionSweeper(
      Ledger ledger,
      Countdown countdown,
      WorkQueue queue,
      Topic<SendTask> tasks,
      Duration leaseTtl,
      SendMetrics metrics,
      InstantSource clock) {
    this.metrics = metrics;
    this.clock = clock;
    this.ledger = ledger;
    this.countdown = countdown;
    this.queue = queue;
    this.tasks = tasks;
    this.every = leaseTtl.dividedBy(2);
    this.stall = leaseTtl.multipliedBy(10);
    this.thread = Thread.ofVirtual().name("send-sweeper").start(this::loop);
  }

  private void loop() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(every);
        sweep();
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("sweeping stuck partitions failed; trying again in {}", every, e);
      }
    }
  }

  /** One sweep; returns how many partitions were queued (again, or for the first time once due). */
  int sweep() {
    int requeued = 0;
    for (SendJob job : ledger.runningBulkRuns()) {
      String name = SendWorker.countdownName(job.campaignId(), job.runId());
      OptionalLong remaining = countdown.remaining(name);
      if (remaining.isPresent() && remaining.getAsLong() == 0) {
        ledger.complete(job.campaignId(), job.runId());
        metrics.swept(SendMetrics.SweeperAction.completed, 1);
        continue;
      }
      List<Integer> due = ledger.release(job.campaignId(), job.runId(), clock.instant());
      if (!due.isEmpty()) {
        publish(job, due);
        metrics.swept(SendMetrics.SweeperAction.released_due, due.size());
        requeued += due.size();
      }
      if (ledger.takeStall(job.campaignId(), job.runId(), stall)) {
        List<Integer> unfinished = ledger.unfinishedPartitions(job.campaignId(), job.runId());
        // a run waiting for partitions planned later does not move between them: nothing is lost
        if (unfinished.isEmpty()) continue;
        log.warn(
            "run {}/{} has not moved for {}; queueing its {} unfinished partitions again",
            job.campaignId(),
            job.runId(),
            stall,
            unfinished.size());
        publish(job, unfinished);
        metrics.swept(SendMetrics.SweeperAction.requeued_stalled, unfinished.size());
        requeued += unfinished.size();
        continue;
      }
      List<Integer> stuck = countdown.stuck(name);
      if (stuck.isEmpty()) continue;
      log.info(
          "run {}/{}: partitions {} show no progress; queueing them for another worker",
          job.campaignId(),
          job.runId(),
          stuck);
      publish(job, stuck);
      metrics.swept(SendMetrics.SweeperAction.requeued_stuck, stuck.size());
      requeued += stuck.size();
    }
    return requeued;
  }

  private void publish(SendJob job, List<Integer> partitions) {
    for (int from = 0; from < partitions.size(); from += 1_000) {
      var batch = partitions.subList(from, Math.min(partitions.size(), from + 1_000));
      tasks.publishAll(
          queue,
          batch.stream().map(part -> SendTask.partition(job, part)).toList(),
          job.priority());
    }
  }

  /** Sweeps once in the caller's thread and stops the background sweeps. */
  int sweepOnceAndClose() {
    close();
    return sweep();
  }

  @Override
  public void close() {
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

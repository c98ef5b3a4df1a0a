package dev.tidings.campaign.send;

import dev.tidings.coordination.Countdown;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.time.Duration;
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
 * completing it.
 */
final class StuckPartitionSweeper implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StuckPartitionSweeper.class);

  private final Ledger ledger;
  private final Countdown countdown;
  private final WorkQueue queue;
  private final Topic<SendTask> tasks;
  private final Duration every;
  private final Thread thread;

  StuckPartitionSweeper(
      Ledger ledger,
      Countdown countdown,
      WorkQueue queue,
      Topic<SendTask> tasks,
      Duration leaseTtl) {
    this.ledger = ledger;
    this.countdown = countdown;
    this.queue = queue;
    this.tasks = tasks;
    this.every = leaseTtl.dividedBy(2);
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

  /** One sweep; returns how many partitions were queued again. */
  int sweep() {
    int requeued = 0;
    for (SendJob job : ledger.runningBulkRuns()) {
      String name = SendWorker.countdownName(job.campaignId(), job.runId());
      OptionalLong remaining = countdown.remaining(name);
      if (remaining.isPresent() && remaining.getAsLong() == 0) {
        ledger.complete(job.campaignId(), job.runId());
        continue;
      }
      List<Integer> stuck = countdown.stuck(name);
      if (stuck.isEmpty()) continue;
      log.info(
          "run {}/{}: partitions {} show no progress; queueing them for another worker",
          job.campaignId(),
          job.runId(),
          stuck);
      tasks.publishAll(
          queue,
          stuck.stream().map(part -> SendTask.partition(job, part)).toList(),
          job.priority());
      requeued += stuck.size();
    }
    return requeued;
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

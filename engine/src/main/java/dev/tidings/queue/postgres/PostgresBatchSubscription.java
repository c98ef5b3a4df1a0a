package dev.tidings.queue.postgres;

import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code consumers} virtual threads, each of which claims up to {@code batchSize} messages in one
 * statement, hands them to the handler in one call on its own thread (under the queue's time limit,
 * for the whole batch) and settles the batch in one statement before it claims the next.
 */
final class PostgresBatchSubscription implements ConsumerSubscription {
  private static final Logger log = LoggerFactory.getLogger(PostgresBatchSubscription.class);

  private final MessageTable table;
  private final Wakeups wakeups;
  private final PostgresQueueOptions options;
  private final QueueSpec spec;
  private final int batchSize;
  private final BatchHandler handler;
  private final Runnable onClose;
  private final List<Thread> consumers = new ArrayList<>();
  private final Leases leases;
  private final TimeLimit timeLimit;
  private final QueueCounters counters;
  private volatile boolean running = true;
  private volatile boolean abandoned;

  PostgresBatchSubscription(
      MessageTable table,
      Wakeups wakeups,
      PostgresQueueOptions options,
      QueueSpec spec,
      int consumerCount,
      int batchSize,
      BatchHandler handler,
      Runnable onClose,
      QueueCounters counters) {
    this.counters = counters;
    this.table = table;
    this.wakeups = wakeups;
    this.options = options;
    this.spec = spec;
    this.batchSize = batchSize;
    this.handler = handler;
    this.onClose = onClose;
    this.leases = new Leases(table, wakeups, spec, counters);
    this.timeLimit = new TimeLimit("tidings-queue-" + spec.name() + "-time-limit");
    for (int i = 0; i < consumerCount; i++) {
      consumers.add(Thread.ofVirtual()
          .name("tidings-queue-" + spec.name() + "-batch-" + i)
          .start(this::consume));
    }
  }

  private void consume() {
    var oldestShare = new OldestShare(spec.oldestEvery());
    while (running) {
      long seen = wakeups.generation(spec.name());
      MessageTable.Claim claim =
          Claims.claimOrEmpty(table, spec, batchSize, oldestShare.oldestOf(batchSize), options);
      List<Claimed> batch = claim.claimed();
      oldestShare.took(batch.size());
      if (batch.isEmpty()) {
        if (running && !wakeups.await(spec.name(), seen, Claims.idleWait(claim, options))) return;
        continue;
      }
      leases.hold(batch);
      Settlement settlement = handle(batch);
      leases.drop(batch);
      if (!abandoned) settlement.apply(table);
    }
  }

  private Settlement handle(List<Claimed> batch) {
    var settlement = new Settlement(spec, counters);
    List<Claimed> deliverable = new ArrayList<>(batch.size());
    for (Claimed message : batch) {
      if (message.deliveries() > spec.maxDeliveries()) {
        // Claimed past the limit (left by an older version, or the limit was lowered since).
        settlement.add(message, Claims.pastMaxDeliveries(message, spec));
      } else {
        deliverable.add(message);
      }
    }
    if (deliverable.isEmpty()) return settlement;
    List<Delivery> deliveries = deliverable.stream().map(Claimed::toDelivery).toList();
    for (Delivery delivery : deliveries) counters.delivered(spec.name(), delivery);
    for (Claimed message : deliverable) {
      Duration late = message.lateness();
      if (late != null) counters.deliveredLate(spec.name(), late);
    }
    var outcome = timeLimit.run(
        spec.handlerTimeout(), () -> leases.drop(deliverable), () -> handler.handle(deliveries));
    switch (outcome) {
      case TimeLimit.Outcome.Returned<BatchResult> returned -> {
        for (int i = 0; i < deliverable.size(); i++) {
          settlement.add(deliverable.get(i), returned.value().dispositionOf(deliveries.get(i)));
        }
      }
      case TimeLimit.Outcome.Threw<BatchResult> threw -> {
        Disposition retry = Disposition.retry("batch handler failed: " + threw.exception());
        for (Claimed message : deliverable) settlement.add(message, retry);
      }
      case TimeLimit.Outcome.TimedOut<BatchResult> timedOut -> {
        Disposition retry = Claims.timedOut(timedOut.limit());
        for (Claimed message : deliverable) settlement.add(message, retry);
      }
    }
    return settlement;
  }

  @Override
  public void close() {
    stopConsumers(spec.handlerTimeout().plusSeconds(15)); // each finishes and settles its batch
    leases.close();
    timeLimit.close();
    onClose.run();
  }

  /** Test hook: behave like a killed process. Batches in progress never settle; their leases run out. */
  @Override
  public void abandon() {
    abandoned = true;
    leases.abandon();
    running = false;
    wakeups.wakeAll();
    timeLimit.close();
    onClose.run();
  }

  private void stopConsumers(Duration bound) {
    running = false;
    wakeups.wakeAll();
    for (Thread consumer : consumers) {
      try {
        if (!consumer.join(bound))
          log.warn("consumer {} did not stop within {}", consumer.getName(), bound);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}

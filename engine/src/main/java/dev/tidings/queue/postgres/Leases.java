package dev.tidings.queue.postgres;

import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leases of one subscription: every quarter of the visibility timeout it renews those of the
 * messages whose handlers still run within their time limit, and takes back the expired leases of
 * the queue (whoever held them: a consumer that died leaves them to the others).
 */
final class Leases implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Leases.class);
  private static final Duration STOP_BOUND = Duration.ofSeconds(15);

  private final MessageTable table;
  private final Wakeups wakeups;
  private final QueueSpec spec;
  private final QueueCounters counters;
  private final Map<Long, Claimed> held = new ConcurrentHashMap<>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread keeper;

  Leases(MessageTable table, Wakeups wakeups, QueueSpec spec, QueueCounters counters) {
    this.counters = counters;
    this.table = table;
    this.wakeups = wakeups;
    this.spec = spec;
    this.keeper =
        Thread.ofVirtual().name("tidings-queue-" + spec.name() + "-leases").start(this::keep);
  }

  void hold(Collection<Claimed> messages) {
    for (Claimed message : messages) held.put(message.id(), message);
  }

  /** Stops renewing: the message is settled, or its handler ran out of time. */
  void drop(Claimed message) {
    held.remove(message.id());
  }

  void drop(Collection<Claimed> messages) {
    for (Claimed message : messages) held.remove(message.id());
  }

  private void keep() {
    long every = Math.max(1, spec.visibilityTimeout().toMillis() / 4);
    while (true) {
      try {
        // A latch rather than an interrupt:
        // interrupting a virtual thread in socket I/O closes the socket.
        if (stop.await(every, TimeUnit.MILLISECONDS)) return;
      } catch (InterruptedException e) {
        return;
      }
      renew();
      takeBackExpired();
    }
  }

  private void renew() {
    try {
      table.renew(spec, List.copyOf(held.values()));
    } catch (RuntimeException e) {
      log.warn(
          "cannot renew {} lease(s) on queue '{}'; they may be redelivered: {}",
          held.size(),
          spec.name(),
          e.toString());
    }
  }

  private void takeBackExpired() {
    try {
      MessageTable.Expired expired = table.releaseExpired(spec);
      for (int i = 0; i < expired.deadLettered(); i++)
        counters.deadLettered(spec.name(), QueueCounters.DeadReason.consumer_lost);
      if (expired.deadLettered() > 0) {
        log.warn(
            "{} message(s) of queue '{}' dead-lettered: their last delivery went to a consumer that"
                + " stopped before settling it",
            expired.deadLettered(),
            spec.name());
      }
      if (expired.returned() > 0) wakeups.wake(spec.name());
    } catch (RuntimeException e) {
      log.warn("cannot take back expired leases on queue '{}': {}", spec.name(), e.toString());
    }
  }

  /** Stops after the statement in progress, at most one away. */
  @Override
  public void close() {
    stop.countDown();
    try {
      if (!keeper.join(STOP_BOUND))
        log.warn("lease keeper {} did not stop within {}", keeper.getName(), STOP_BOUND);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** As a killed process: no more renewals, so every lease held simply runs out. */
  void abandon() {
    stop.countDown();
  }
}

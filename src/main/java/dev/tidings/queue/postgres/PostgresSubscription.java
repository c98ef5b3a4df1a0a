package dev.tidings.queue.postgres;

import dev.tidings.queue.Disposition;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code consumers} claim loops on virtual threads. Each loop holds at most {@code prefetch} leased
 * messages (a semaphore of that many permits, returned when a message is settled) and runs every
 * handler on a virtual thread of its own. While handlers run, their leases are renewed every third of
 * the visibility timeout, so a slow handler keeps its message and only a dead process loses it.
 */
final class PostgresSubscription implements Subscription {
  private static final Logger log = LoggerFactory.getLogger(PostgresSubscription.class);

  private static final long CHECK_STOPPED_MILLIS = 100;

  private final MessageTable table;
  private final Wakeups wakeups;
  private final PostgresQueueOptions options;
  private final QueueSpec spec;
  private final int prefetch;
  private final MessageHandler handler;
  private final Runnable onClose;
  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
  private final List<Thread> loops = new ArrayList<>();
  private final Map<Long, Claimed> held = new ConcurrentHashMap<>();
  private final Thread renewer;
  private final CountDownLatch stopRenewing = new CountDownLatch(1);
  private volatile boolean running = true;
  private volatile boolean abandoned;

  PostgresSubscription(
      MessageTable table,
      Wakeups wakeups,
      PostgresQueueOptions options,
      QueueSpec spec,
      int consumers,
      int prefetch,
      MessageHandler handler,
      Runnable onClose) {
    this.table = table;
    this.wakeups = wakeups;
    this.options = options;
    this.spec = spec;
    this.prefetch = prefetch;
    this.handler = handler;
    this.onClose = onClose;
    for (int i = 0; i < consumers; i++) {
      loops.add(
          Thread.ofVirtual().name("tidings-queue-" + spec.name() + "-" + i).start(this::claimLoop));
    }
    renewer =
        Thread.ofVirtual().name("tidings-queue-" + spec.name() + "-renew").start(this::renewLoop);
  }

  private void renewLoop() {
    Duration every = spec.visibilityTimeout().dividedBy(3);
    while (true) {
      try {
        // A latch rather than an interrupt: interrupting a virtual thread in socket I/O closes the
        // socket.
        if (stopRenewing.await(every.toMillis(), TimeUnit.MILLISECONDS)) return;
      } catch (InterruptedException e) {
        return;
      }
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
  }

  private void claimLoop() {
    var permits = new Semaphore(prefetch);
    while (running) {
      try {
        if (!permits.tryAcquire(CHECK_STOPPED_MILLIS, TimeUnit.MILLISECONDS)) continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      int wanted = 1 + permits.drainPermits();
      long seen = wakeups.generation(spec.name());
      List<Claimed> claimed = claimOrEmpty(wanted);
      permits.release(wanted - claimed.size());
      for (Claimed message : claimed) {
        held.put(message.id(), message);
        handlers.execute(() -> {
          try {
            handle(message);
          } finally {
            held.remove(message.id());
            permits.release();
          }
        });
      }
      if (claimed.isEmpty() && running && !wakeups.await(spec.name(), seen, options.pollInterval()))
        return;
    }
  }

  private List<Claimed> claimOrEmpty(int wanted) {
    try {
      return table.claim(spec, wanted);
    } catch (RuntimeException e) {
      log.warn(
          "cannot claim from queue '{}', retrying in {}: {}",
          spec.name(),
          options.pollInterval(),
          e.toString());
      return List.of();
    }
  }

  private void handle(Claimed message) {
    if (message.deliveries() > spec.maxDeliveries()) {
      // Only consumers that died holding it could push it past the limit: do not feed it to a
      // third.
      settle(
          message,
          new Disposition.Reject("lease expired " + (message.deliveries() - 1)
              + " times (max deliveries " + spec.maxDeliveries() + ")"));
      return;
    }
    Disposition disposition;
    try {
      disposition = handler.handle(message.toDelivery());
    } catch (Exception e) {
      disposition = Disposition.retry("handler failed: " + e);
    }
    settle(message, disposition);
  }

  private void settle(Claimed message, Disposition disposition) {
    if (abandoned) return;
    try {
      boolean stillOurs = switch (disposition) {
        case Disposition.Ack ack -> table.delete(message);
        case Disposition.Reject reject -> table.deadLetter(message, reject.reason());
        case Disposition.Retry retry
        when message.deliveries() >= spec.maxDeliveries() ->
          table.deadLetter(message, retry.reason());
        case Disposition.Retry retry ->
          table.release(message, options.backoffAfter(message.deliveries()));
      };
      if (!stillOurs) {
        log.warn(
            "message {} of queue '{}' was leased to another consumer before its handler finished "
                + "(visibility timeout {}); its result {} is dropped",
            message.id(),
            spec.name(),
            spec.visibilityTimeout(),
            disposition);
      }
    } catch (RuntimeException e) {
      log.warn(
          "cannot settle message {} of queue '{}'; it is redelivered after its lease ends: {}",
          message.id(),
          spec.name(),
          e.toString());
    }
  }

  @Override
  public void close() {
    stopLoops();
    handlers.close(); // waits for handlers in progress; they settle their messages
    stopRenewing.countDown();
    awaitRenewer(); // no renew may still run once close returns (the caller may close the pool
    // next)
    onClose.run();
  }

  /** Test hook: behave like a killed process. Handlers still running never settle; their leases simply run out. */
  void abandon() {
    abandoned = true;
    stopRenewing.countDown();
    stopLoops();
    handlers.shutdown();
    onClose.run();
  }

  private void awaitRenewer() {
    Duration bound =
        Duration.ofSeconds(15); // it stops after its renew in progress, one statement at most
    try {
      if (!renewer.join(bound))
        log.warn("lease renewer {} did not stop within {}", renewer.getName(), bound);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stopLoops() {
    running = false;
    wakeups.wakeAll();
    // A loop stops after its claim in progress, at most one statement away.
    Duration bound = Duration.ofSeconds(15);
    for (Thread loop : loops) {
      try {
        if (!loop.join(bound))
          log.warn("consumer {} did not stop within {}", loop.getName(), bound);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}

package dev.tidings.queue.postgres;

import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code consumers} claim loops on virtual threads, one message per handler call. Each loop holds at
 * most {@code prefetch} leased messages (a semaphore of that many permits, returned when a message is
 * settled), claims as many as it has room for in one statement, and runs every handler on a virtual
 * thread of its own under the queue's time limit. Results are settled in groups by a {@link Settler}.
 */
final class PostgresSubscription implements ConsumerSubscription {
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
  private final Leases leases;
  private final Settler settler;
  private final QueueCounters counters;
  private final TimeLimit timeLimit;
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
      Runnable onClose,
      QueueCounters counters) {
    this.counters = counters;
    this.table = table;
    this.wakeups = wakeups;
    this.options = options;
    this.spec = spec;
    this.prefetch = prefetch;
    this.handler = handler;
    this.onClose = onClose;
    this.leases = new Leases(table, wakeups, spec, counters);
    this.settler = new Settler(table, spec, counters);
    this.timeLimit = new TimeLimit("tidings-queue-" + spec.name() + "-time-limit");
    for (int i = 0; i < consumers; i++) {
      loops.add(
          Thread.ofVirtual().name("tidings-queue-" + spec.name() + "-" + i).start(this::claimLoop));
    }
  }

  private void claimLoop() {
    var permits = new Semaphore(prefetch);
    var oldestShare = new OldestShare(spec.oldestEvery());
    while (running) {
      try {
        if (!permits.tryAcquire(CHECK_STOPPED_MILLIS, TimeUnit.MILLISECONDS)) continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      int wanted = 1 + permits.drainPermits();
      long seen = wakeups.generation(spec.name());
      MessageTable.Claim claim =
          Claims.claimOrEmpty(table, spec, wanted, oldestShare.oldestOf(wanted), options);
      List<Claimed> claimed = claim.claimed();
      oldestShare.took(claimed.size());
      permits.release(wanted - claimed.size());
      leases.hold(claimed);
      for (Claimed message : claimed) {
        handlers.execute(() -> handle(message, permits::release));
      }
      if (claimed.isEmpty()
          && running
          && !wakeups.await(spec.name(), seen, Claims.idleWait(claim, options))) return;
    }
  }

  private void handle(Claimed message, Runnable settled) {
    Runnable done = () -> {
      leases.drop(message);
      settled.run();
    };
    if (message.deliveries() > spec.maxDeliveries()) {
      // Claimed past the limit (left by an older version, or the limit was lowered since): do not
      // feed it to yet another handler.
      finish(message, Claims.pastMaxDeliveries(message, spec), done);
      return;
    }
    Disposition disposition = switch (timeLimit.run(
        spec.handlerTimeout(), () -> leases.drop(message), () -> {
          Delivery delivery = message.toDelivery();
          counters.delivered(spec.name(), delivery);
          Duration late = message.lateness();
          if (late != null) counters.deliveredLate(spec.name(), late);
          return handler.handle(delivery);
        })) {
      case TimeLimit.Outcome.Returned<Disposition> returned -> returned.value();
      case TimeLimit.Outcome.Threw<Disposition> threw ->
        Disposition.retry("handler failed: " + threw.exception());
      case TimeLimit.Outcome.TimedOut<Disposition> timedOut -> Claims.timedOut(timedOut.limit());
    };
    finish(message, disposition, done);
  }

  private void finish(Claimed message, Disposition disposition, Runnable done) {
    if (abandoned) return;
    settler.settle(message, disposition, done);
  }

  @Override
  public void close() {
    stopLoops();
    handlers.close(); // waits for handlers in progress; they hand their results to the settler
    settler.close(); // settles them
    leases.close(); // no statement may still run once close returns (the pool may close next)
    timeLimit.close();
    onClose.run();
  }

  /** Test hook: behave like a killed process. Handlers still running never settle; their leases simply run out. */
  @Override
  public void abandon() {
    abandoned = true;
    leases.abandon();
    stopLoops();
    handlers.shutdown();
    settler.close();
    timeLimit.close();
    onClose.run();
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

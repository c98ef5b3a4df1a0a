package dev.tidings.queue.postgres;

import dev.tidings.queue.Disposition;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles the messages of single-message handlers in groups: whatever handlers finished while the
 * previous statement ran goes in the next one, so an idle queue settles each message at once and a
 * busy one pays one statement for many.
 */
final class Settler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Settler.class);
  private static final Duration STOP_BOUND = Duration.ofSeconds(15);

  private sealed interface Work {}

  /** A handler's result and what to do once it is settled (free the consumer's prefetch slot). */
  private record Result(Claimed message, Disposition disposition, Runnable settled)
      implements Work {}

  private record Stop() implements Work {}

  private final MessageTable table;
  private final QueueSpec spec;
  private final QueueCounters counters;
  private final LinkedBlockingQueue<Work> results = new LinkedBlockingQueue<>();
  private final Thread thread;

  Settler(MessageTable table, QueueSpec spec, QueueCounters counters) {
    this.counters = counters;
    this.table = table;
    this.spec = spec;
    this.thread =
        Thread.ofVirtual().name("tidings-queue-" + spec.name() + "-settler").start(this::run);
  }

  void settle(Claimed message, Disposition disposition, Runnable settled) {
    results.add(new Result(message, disposition, settled));
  }

  private void run() {
    List<Work> group = new ArrayList<>();
    boolean stopping = false;
    while (!stopping) {
      try {
        group.add(results.take());
      } catch (InterruptedException e) {
        return;
      }
      results.drainTo(group);
      var settlement = new Settlement(spec, counters);
      for (Work work : group) {
        switch (work) {
          case Result result -> settlement.add(result.message(), result.disposition());
          case Stop stop -> stopping = true;
        }
      }
      settlement.apply(table);
      for (Work work : group) {
        if (work instanceof Result result) result.settled().run();
      }
      group.clear();
    }
  }

  /** Settles what was handed over so far, then stops. */
  @Override
  public void close() {
    results.add(new Stop());
    try {
      if (!thread.join(STOP_BOUND))
        log.warn("settler {} did not stop within {}", thread.getName(), STOP_BOUND);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

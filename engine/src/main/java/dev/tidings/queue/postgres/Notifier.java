package dev.tidings.queue.postgres;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends this node's NOTIFYs for published messages, at most one per queue per interval. A publish
 * marks its queue after its commit; the mark is answered by a NOTIFY sent after it, at once when the
 * queue's last one is older than the interval (an idle consumer wakes within a round trip), else when
 * the interval has passed (publishes in between share it). Every mark is followed by a NOTIFY, so no
 * wake-up is lost, and each is sent after the rows it announces were committed.
 */
final class Notifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);
  private static final Duration STOP_BOUND = Duration.ofSeconds(15);

  private final MessageTable table;
  private final long intervalNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition marked = lock.newCondition();
  private final Set<String> pending = new LinkedHashSet<>();
  private final Map<String, Long> lastSent = new HashMap<>();
  private final Thread thread;
  private boolean running = true;

  Notifier(MessageTable table, Duration interval) {
    this.table = table;
    this.intervalNanos = interval.toNanos();
    this.thread = Thread.ofVirtual().name("tidings-queue-notifier").start(this::run);
  }

  /** Called after a publish to {@code queue} committed. */
  void published(String queue) {
    lock.lock();
    try {
      if (pending.add(queue)) marked.signal();
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    while (true) {
      List<String> due;
      long sentAt;
      lock.lock();
      try {
        due = nextDue();
        if (due.isEmpty()) return; // stopped with nothing left to announce
        sentAt = System.nanoTime();
        for (String queue : due) lastSent.put(queue, sentAt);
      } finally {
        lock.unlock();
      }
      try {
        table.notify(due);
      } catch (RuntimeException e) {
        log.warn(
            "cannot notify consumers of {}; they find the messages at their next poll: {}",
            due,
            e.toString());
      }
    }
  }

  /** Waits until some marked queue may be announced and takes those that may; empty once stopped. */
  private List<String> nextDue() {
    while (true) {
      if (pending.isEmpty()) {
        if (!running) return List.of();
        marked.awaitUninterruptibly();
        continue;
      }
      long now = System.nanoTime();
      long wait = Long.MAX_VALUE;
      List<String> due = new ArrayList<>();
      for (String queue : pending) {
        Long last = lastSent.get(queue);
        long left = last == null || !running ? 0 : last + intervalNanos - now;
        if (left <= 0) due.add(queue);
        else wait = Math.min(wait, left);
      }
      if (!due.isEmpty()) {
        due.forEach(pending::remove);
        return due;
      }
      try {
        marked.awaitNanos(wait);
      } catch (InterruptedException e) {
        // Not restored: an interrupt would break the NOTIFY's socket I/O. Nothing but the JVM's end
        // interrupts this thread; announce what is left at once, then stop.
        running = false;
      }
    }
  }

  /** Announces what is marked, at once, then stops. */
  @Override
  public void close() {
    lock.lock();
    try {
      running = false;
      marked.signal();
    } finally {
      lock.unlock();
    }
    try {
      if (!thread.join(STOP_BOUND)) log.warn("queue notifier did not stop within {}", STOP_BOUND);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

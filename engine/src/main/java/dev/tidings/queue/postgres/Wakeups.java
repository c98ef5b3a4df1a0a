package dev.tidings.queue.postgres;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets idle consumers sleep until something was published to their queue. A consumer reads the
 * queue's generation before it looks at the table and waits only while the generation is unchanged,
 * so a publish that lands between its empty claim and its wait is never missed.
 */
final class Wakeups {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, Long> generations = new HashMap<>();
  private long everyQueue;

  long generation(String queue) {
    lock.lock();
    try {
      return current(queue);
    } finally {
      lock.unlock();
    }
  }

  void wake(String queue) {
    lock.lock();
    try {
      generations.merge(queue, 1L, Long::sum);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiter, e.g. on shutdown, so that it rechecks whether it should still run. */
  void wakeAll() {
    lock.lock();
    try {
      everyQueue++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until {@code queue} moves past {@code seen} or {@code timeout} passes; false on interrupt. */
  boolean await(String queue, long seen, Duration timeout) {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (current(queue) == seen && remaining > 0) {
        remaining = changed.awaitNanos(remaining);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }

  private long current(String queue) {
    return generations.getOrDefault(queue, 0L) + everyQueue;
  }
}

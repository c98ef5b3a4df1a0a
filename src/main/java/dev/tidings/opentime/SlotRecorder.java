package dev.tidings.opentime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps chosen lists in the database off the request path: requests hand lists over, one virtual
 * thread writes whatever has gathered in one statement. A list that could not be kept (a full buffer,
 * a failed write) is counted; the coordinator still holds it for its TTL, and the email's next
 * request after that chooses again.
 */
final class SlotRecorder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SlotRecorder.class);
  private static final int MAX_BATCH = 1_000;

  private final SlotTable table;
  private final BlockingQueue<ChosenSlots> pending;
  private final Duration linger;
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong handedOver = new AtomicLong();
  private final AtomicLong settled = new AtomicLong();
  private final Thread writer;
  private volatile boolean running = true;

  SlotRecorder(SlotTable table, int capacity, Duration linger) {
    this.table = table;
    this.pending = new ArrayBlockingQueue<>(capacity);
    this.linger = linger;
    this.writer = Thread.ofVirtual().name("tidings-opentime-slot-recorder").start(this::write);
  }

  void keep(ChosenSlots list) {
    if (pending.offer(list)) handedOver.incrementAndGet();
    else lost.incrementAndGet();
  }

  long lost() {
    return lost.get();
  }

  /** Waits until everything handed over so far is written (or given up on). */
  void flush() throws InterruptedException {
    long target = handedOver.get();
    while (settled.get() < target) Thread.sleep(2);
  }

  private void write() {
    List<ChosenSlots> batch = new ArrayList<>(MAX_BATCH);
    while (running || !pending.isEmpty()) {
      try {
        ChosenSlots first = pending.poll(linger.toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) continue;
        batch.add(first);
        pending.drainTo(batch, MAX_BATCH - 1);
        try {
          table.keepAll(batch);
        } catch (RuntimeException e) {
          lost.addAndGet(batch.size());
          log.warn("could not keep {} chosen slot list(s): {}", batch.size(), e.toString());
        }
        settled.addAndGet(batch.size());
        batch.clear();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    try {
      writer.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

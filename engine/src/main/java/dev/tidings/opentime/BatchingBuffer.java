package dev.tidings.opentime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes writes off the request path: requests hand items over without waiting, and one virtual thread
 * passes whatever has gathered (up to {@code maxBatch}) to {@code write} in one call. An item that
 * cannot be written (a full buffer, a failed write) is counted as lost, never a request's failure.
 */
final class BatchingBuffer<T> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BatchingBuffer.class);

  private final String what;
  private final Consumer<List<T>> write;
  private final int maxBatch;
  private final BlockingQueue<T> pending;
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong handedOver = new AtomicLong();
  private final AtomicLong settled = new AtomicLong();
  private final Thread writer;
  private volatile boolean running = true;

  /** {@code what} names the items in logs and the thread ("chosen slot lists", "engagements"). */
  BatchingBuffer(String what, int capacity, int maxBatch, Consumer<List<T>> write) {
    this.what = what;
    this.write = write;
    this.maxBatch = maxBatch;
    this.pending = new ArrayBlockingQueue<>(capacity);
    this.writer = Thread.ofVirtual().name("tidings-" + what.replace(' ', '-')).start(this::drain);
  }

  void add(T item) {
    if (pending.offer(item)) handedOver.incrementAndGet();
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

  private void drain() {
    List<T> batch = new ArrayList<>(maxBatch);
    while (running || !pending.isEmpty()) {
      try {
        T first = pending.poll(50, TimeUnit.MILLISECONDS);
        if (first == null) continue;
        batch.add(first);
        pending.drainTo(batch, maxBatch - 1);
        try {
          write.accept(batch);
        } catch (RuntimeException e) {
          lost.addAndGet(batch.size());
          log.warn("could not write {} {}: {}", batch.size(), what, e.toString());
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

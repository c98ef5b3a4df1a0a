package dev.tidings.opentime;

import dev.tidings.queue.Codec;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
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
 * Hands engagements to the queue without making a mail client wait for it: requests drop them into a
 * bounded buffer and one virtual thread publishes whatever has gathered, many per queue message
 * round. A full buffer or a queue that is down loses engagements, counted, never a request.
 */
public final class EngagementRecorder implements AutoCloseable {
  /** Where engagements go; the delivery capability consumes them. */
  public static final Topic<Engagement> TOPIC =
      new Topic<>(QueueSpec.of("opentime.engagement"), Codec.json(Engagement.class));

  private static final Logger log = LoggerFactory.getLogger(EngagementRecorder.class);
  private static final int MAX_BATCH = 500;

  private final WorkQueue queue;
  private final BlockingQueue<Engagement> pending;
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong handedOver = new AtomicLong();
  private final AtomicLong settled = new AtomicLong();
  private final Thread publisher;
  private volatile boolean running = true;

  public EngagementRecorder(WorkQueue queue, int capacity) {
    this.queue = queue;
    this.pending = new ArrayBlockingQueue<>(capacity);
    queue.declare(TOPIC.spec());
    this.publisher = Thread.ofVirtual().name("tidings-opentime-engagements").start(this::publish);
  }

  public void record(Engagement engagement) {
    if (pending.offer(engagement)) handedOver.incrementAndGet();
    else lost.incrementAndGet();
  }

  /** Waits until everything recorded so far is published (or given up on). */
  public void flush() throws InterruptedException {
    long target = handedOver.get();
    while (settled.get() < target) Thread.sleep(2);
  }

  public long lost() {
    return lost.get();
  }

  private void publish() {
    List<Engagement> batch = new ArrayList<>(MAX_BATCH);
    while (running || !pending.isEmpty()) {
      try {
        Engagement first = pending.poll(50, TimeUnit.MILLISECONDS);
        if (first == null) continue;
        batch.add(first);
        pending.drainTo(batch, MAX_BATCH - 1);
        try {
          TOPIC.publishAll(queue, batch, 1);
        } catch (RuntimeException e) {
          lost.addAndGet(batch.size());
          log.warn("could not queue {} engagement(s): {}", batch.size(), e.toString());
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
      publisher.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

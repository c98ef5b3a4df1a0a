package dev.tidings.opentime;

import dev.tidings.queue.Codec;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;

/**
 * Hands engagements to the queue without making a mail client wait for it: requests drop them into a
 * bounded buffer and one virtual thread publishes whatever has gathered, many per queue message
 * round, in one queue message. A full buffer or a queue that is down loses engagements, counted, never a request.
 */
public final class EngagementRecorder implements AutoCloseable {
  /** Where engagements go for activity (slot clicks feed the recommenders). */
  public static final Topic<Engagements> TOPIC =
      new Topic<>(QueueSpec.of("opentime.engagement"), Codec.json(Engagements.class));

  /** The same engagements for the delivery capability (opens and clicks as receipts). */
  public static final Topic<Engagements> RECEIPTS_TOPIC =
      new Topic<>(QueueSpec.of("opentime.engagement.receipts"), Codec.json(Engagements.class));

  private static final int MAX_BATCH = 500;

  private final BatchingBuffer<Engagement> buffer;

  public EngagementRecorder(WorkQueue queue, int capacity) {
    queue.declare(TOPIC.spec());
    queue.declare(RECEIPTS_TOPIC.spec());
    // both consumers need every engagement: activity (clicks for the recommenders) and delivery
    // (opens and clicks in the funnel); publishing only the first left the funnel without opens
    this.buffer = new BatchingBuffer<>("engagements", capacity, MAX_BATCH, batch -> {
      var engagements = new Engagements(batch);
      TOPIC.publish(queue, engagements, 1);
      RECEIPTS_TOPIC.publish(queue, engagements, 1);
    });
  }

  public void record(Engagement engagement) {
    buffer.add(engagement);
  }

  public long lost() {
    return buffer.lost();
  }

  /** Waits until everything recorded so far is published (or given up on). */
  public void flush() throws InterruptedException {
    buffer.flush();
  }

  @Override
  public void close() {
    buffer.close();
  }
}

package dev.tidings.campaign.send;

import dev.tidings.queue.Codec;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.RetryPolicy;
import dev.tidings.queue.Topic;
import java.time.Duration;

/** The two queues of the pipeline: work for the workers, receipts for the delivery capability. */
public final class SendTopics {
  /** Work never fails for good on the queue: a partition that cannot be worked now comes back. */
  private static final int TASK_DELIVERIES = 50;

  private SendTopics() {}

  /**
   * Partitions and triggered sends on one queue. Priorities are strict except that one delivery in
   * ten goes to the oldest message, so triggered sends overtake bulk partitions without starving them.
   */
  public static Topic<SendTask> tasks(SendOptions options) {
    var spec = new QueueSpec(
            options.queueName(),
            QueueSpec.MAX_PRIORITY,
            TASK_DELIVERIES,
            // a dead worker's partition comes back after this on the queue tables; the sweeper
            // re-queues it sooner, once its lease has expired
            options.leaseTtl().multipliedBy(2))
        .withRetry(RetryPolicy.exponential(Duration.ofSeconds(1), options.leaseTtl()))
        .withHandlerTimeout(Duration.ofMinutes(25))
        .withOldestEvery(QueueSpec.DEFAULT_OLDEST_EVERY);
    return new Topic<>(spec, Codec.json(SendTask.class));
  }

  public static Topic<SendReceipt> receipts(SendOptions options) {
    return new Topic<>(QueueSpec.of(options.receiptQueueName()), Codec.json(SendReceipt.class));
  }
}

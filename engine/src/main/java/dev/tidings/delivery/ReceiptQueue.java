package dev.tidings.delivery;

import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link ReceiptSink} of the edges: a request's receipts go to the queue in messages of up to
 * {@value #RECEIPTS_PER_MESSAGE}, published before {@link #accept} returns, so a webhook answers 2xx
 * only for receipts the queue holds. Nothing is buffered in memory: when the queue cannot take them,
 * the caller gets the queue's exception and answers 503, and the provider retries.
 */
public final class ReceiptQueue implements ReceiptSink {
  public static final Topic<ReceiptBatch> TOPIC =
      new Topic<>(QueueSpec.of("delivery.receipts"), new ReceiptBatchCodec());
  static final int RECEIPTS_PER_MESSAGE = 1_000;
  private static final int PRIORITY = 1;

  private final WorkQueue queue;
  private final Topic<ReceiptBatch> topic;

  public ReceiptQueue(WorkQueue queue) {
    this(queue, TOPIC);
  }

  /** On a queue of another name (tests that share a broker). */
  public ReceiptQueue(WorkQueue queue, Topic<ReceiptBatch> topic) {
    this.queue = queue;
    this.topic = topic;
    queue.declare(topic.spec());
  }

  @Override
  public void accept(List<Receipt> receipts) {
    if (receipts.isEmpty()) return;
    List<ReceiptBatch> batches = new ArrayList<>();
    for (int from = 0; from < receipts.size(); from += RECEIPTS_PER_MESSAGE)
      batches.add(new ReceiptBatch(
          receipts.subList(from, Math.min(receipts.size(), from + RECEIPTS_PER_MESSAGE)),
          List.of()));
    topic.publishAll(queue, batches, PRIORITY);
  }

  /**
   * Publishes receipts that failed in the store, taken out of a message whose others were applied,
   * as a message of their own: alone, it fails again and is dead-lettered with its reason.
   */
  public void setAside(ReceiptBatch batch) {
    topic.publish(queue, batch, PRIORITY);
  }

  @Override
  public void unknown(ReceiptSource source, String eventType, String rawEvent) {
    unknown(source, eventType, rawEvent, Optional.empty());
  }

  @Override
  public void unknown(
      ReceiptSource source, String eventType, String rawEvent, Optional<String> eventId) {
    topic.publish(
        queue,
        new ReceiptBatch(
            List.of(), List.of(new ReceiptStore.Unknown(source, eventType, rawEvent, eventId))),
        PRIORITY);
  }
}

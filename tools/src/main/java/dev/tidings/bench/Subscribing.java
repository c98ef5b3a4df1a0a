package dev.tidings.bench;

import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import java.util.List;

/**
 * Runs a capability's consumers in a benchmark, as a worker would: each queue declared on {@code
 * queue} and each handler subscribed there, every subscription added to {@code subscriptions} for the
 * benchmark to close.
 */
public record Subscribing(WorkQueue queue, List<Subscription> subscriptions)
    implements ConsumerGroup.Consumers {
  @Override
  public void consume(QueueSpec spec, int consumers, int prefetch, MessageHandler handler) {
    queue.declare(spec);
    subscriptions.add(queue.subscribe(spec.name(), consumers, prefetch, handler));
  }

  @Override
  public void consumeBatches(QueueSpec spec, int consumers, int batchSize, BatchHandler handler) {
    queue.declare(spec);
    subscriptions.add(queue.subscribeBatches(spec.name(), consumers, batchSize, handler));
  }
}

package dev.tidings.queue;

import java.util.List;

/**
 * Runs a capability's consumers outside a node's workers (in tests and benchmarks), as a worker would:
 * each queue declared on {@code queue} and each handler subscribed there, every subscription added to
 * {@code subscriptions} for the caller to close. No metrics, no queue list: a node uses its own.
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

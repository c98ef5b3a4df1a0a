package dev.tidings.queue;

/**
 * The queue consumers one capability runs, registered the way its HTTP routes are: a node started
 * in a role that consumes (worker, demo) declares each queue and subscribes each handler; a node
 * that only serves HTTP never calls this.
 */
@FunctionalInterface
public interface ConsumerGroup {
  void register(Consumers consumers);

  /** Where a capability registers its consumers. */
  interface Consumers {
    /**
     * Declares {@code queue} and starts {@code consumers} consumers on it, each holding at most
     * {@code prefetch} unacknowledged messages.
     */
    void consume(QueueSpec queue, int consumers, int prefetch, MessageHandler handler);

    /**
     * Declares {@code queue} and starts {@code consumers} consumers on it that each take up to
     * {@code batchSize} messages per call of {@code handler}.
     */
    void consumeBatches(QueueSpec queue, int consumers, int batchSize, BatchHandler handler);

    default <T> void consume(
        Topic<T> topic, int consumers, int prefetch, Topic.Handler<T> handler) {
      consume(topic.spec(), consumers, prefetch, topic.handler(handler));
    }

    default <T> void consumeBatches(
        Topic<T> topic, int consumers, int batchSize, Topic.BatchOf<T> handler) {
      consumeBatches(topic.spec(), consumers, batchSize, topic.batchHandler(handler));
    }
  }
}

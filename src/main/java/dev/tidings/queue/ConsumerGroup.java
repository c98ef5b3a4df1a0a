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
  }
}

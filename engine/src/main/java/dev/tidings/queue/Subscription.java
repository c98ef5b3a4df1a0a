package dev.tidings.queue;

/** Running consumers of one queue. */
public interface Subscription extends AutoCloseable {
  /** Stops taking new messages, waits for handlers in progress to finish and acknowledges their results. */
  @Override
  void close();
}

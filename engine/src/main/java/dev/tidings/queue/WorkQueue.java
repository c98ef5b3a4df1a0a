package dev.tidings.queue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Durable work queues with priorities (seed 05: triggered sends overtake bulk partitions on one queue),
 * at-least-once delivery, redelivery of whatever a dead consumer held, and dead-lettering of messages
 * that keep failing. Handlers must therefore be idempotent.
 *
 * <p>Implementations: queue tables in PostgreSQL ({@code FOR UPDATE SKIP LOCKED}) for the embedded
 * default, RabbitMQ in production. Thread-safe.
 */
public interface WorkQueue extends AutoCloseable {
  /**
   * The furthest ahead a message's not-before may be when it is published: 2^26 - 1 seconds, about 776
   * days, the most RabbitMQ's delay ladder can wait (see the adapter). Further is refused on every
   * adapter, so that code written against one runs on the other.
   */
  Duration MAX_DELAY = Duration.ofSeconds((1L << 26) - 1);

  /** Creates the queue and its dead-letter queue if they do not exist; idempotent, safe from many nodes. */
  void declare(QueueSpec spec);

  /**
   * Enqueues one message durably: when this returns, the message survives a crash of the queue's
   * server. Blocks while too many publishes are unconfirmed (backpressure); throws
   * {@link QueueUnavailableException} when the queue did not confirm it in time. The message may still
   * arrive then (the connection can drop after the broker took it but before its confirm came back), so
   * a caller that publishes again produces a duplicate, which consumers absorb by being idempotent.
   *
   * <p>A message with a {@link Message#notBefore() not-before} instant still ahead of the publisher's
   * clock is delayed: it is durable from this call on, and survives restarts of the nodes and of the
   * queue's server (and, on RabbitMQ quorum queues, the loss of one node), but no consumer sees it
   * before its time. Then:
   * <ul>
   *   <li>it is never delivered before its instant: on PostgreSQL by the database's clock, to the
   *       microsecond; on RabbitMQ by the publisher's clock, as the delay is taken from it at this
   *       call, rounded up to whole seconds (the granularity) and then counted down by the broker;
   *   <li>it is delivered soon after, when a consumer has room: measured on an idle consumer
   *       ({@code WorkQueueContract}), 5 to 42 ms late on PostgreSQL, and up to 1.02 s on RabbitMQ,
   *       classic or quorum, nearly all of it the rounding up to whole seconds (half a second on
   *       average); {@code tidings_queue_delayed_lateness_seconds} shows it in production;
   *   <li>at least once, as any message; a retry waits its backoff from the failed delivery, not from
   *       the not-before;
   *   <li>once due it is ordered as any waiting message: by priority, and the
   *       {@link QueueSpec#oldestEvery()} share counts its age from its not-before. A delayed message
   *       never holds up messages that are due.
   * </ul>
   * An instant that is not after the publisher's clock is ignored: the message is published as one
   * without. One more than {@link #MAX_DELAY} ahead is refused with an {@link IllegalArgumentException}
   * before anything is published.
   */
  void publish(String queue, Message message);

  /**
   * Enqueues every message durably with one round of confirmation; on an exception, assume none or some
   * were. Delayed and immediate messages may be mixed; each is delivered as {@link #publish} says.
   */
  void publishAll(String queue, List<Message> messages);

  /**
   * Starts {@code consumers} consumers, each holding at most {@code prefetch} unacknowledged messages,
   * that hand each delivery to {@code handler} on a virtual thread. Higher priorities are delivered
   * first, with the share {@link QueueSpec#oldestEvery()} keeps for the oldest message; a failed
   * delivery comes back after the queue's {@link RetryPolicy} backoff.
   */
  Subscription subscribe(String queue, int consumers, int prefetch, MessageHandler handler);

  /**
   * Starts {@code consumers} consumers that each take up to {@code batchSize} messages at a time and
   * hand them to {@code handler} in one call, on a virtual thread; the batch is whatever is waiting, up
   * to that size (a consumer never waits to fill one). Settled together: the acknowledged messages of
   * a batch are removed with one set-based operation. Priorities, fairness, retries, the handler's
   * time limit ({@link QueueSpec#handlerTimeout()}, for the whole batch) and dead-lettering apply
   * to each message as with {@link #subscribe}.
   */
  Subscription subscribeBatches(String queue, int consumers, int batchSize, BatchHandler handler);

  /**
   * Messages waiting to be delivered (not counting those held by consumers, nor delayed messages whose
   * not-before has not come).
   */
  long depth(String queue);

  /**
   * Delayed messages of {@code queue} whose not-before has not come; empty where the adapter cannot
   * tell (RabbitMQ keeps the delayed messages of every queue in one shared ladder).
   */
  OptionalLong delayed(String queue);

  /**
   * How long the oldest message of {@code queue} has been in it (waiting, backing off or held by a
   * consumer), from its first publish (a delayed message: from its not-before); zero when it is
   * empty, and empty when this node cannot tell.
   * The queue tables know it exactly; on RabbitMQ a node that consumes the queue gives an upper bound,
   * exact to within how often it is asked (see the adapter), and a node that does not consume it cannot
   * tell.
   */
  Optional<Duration> oldestAge(String queue);

  /** The newest dead letters of {@code queue}, newest first, at most {@code limit}, however many there are. */
  List<DeadLetter> deadLetters(String queue, int limit);

  /**
   * Publishes the dead letter {@code messageId} of {@code queue} again, as a fresh message of the same
   * body, priority and headers whose deliveries start over, and removes it from the dead letters, as an
   * operator does once the cause is fixed; false when the queue has no such dead letter.
   */
  boolean requeueDeadLetter(String queue, String messageId);

  /** Removes the dead letter {@code messageId} of {@code queue} for good; false when there is none. */
  boolean dropDeadLetter(String queue, String messageId);

  /**
   * Deletes {@code queue} with its waiting messages and dead letters, for operators and benchmarks;
   * publishing to it is then an error until it is declared again. Stop its subscriptions first.
   * Deleting a queue that does not exist does nothing.
   */
  void delete(String queue);

  /** Stops every subscription and releases connections; unacknowledged messages go back to their queue. */
  @Override
  void close();
}

package dev.tidings.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * @param name letters, digits, dots, dashes and underscores
 * @param maxPriority priorities run 0..maxPriority (at most 9: single digits, as RabbitMQ advises)
 * @param maxDeliveries deliveries before a message that keeps failing (its handler answers retry,
 *     throws, runs out of time, or its consumer dies holding it) is dead-lettered
 * @param visibilityTimeout how long a consumer may go silent holding a message before it is presumed
 *     dead and the message is delivered again (where the backend does not notice a dead consumer
 *     itself); a live consumer keeps its messages for as long as their handler runs
 * @param handlerTimeout the longest a handler may work on one delivery (or one batch): past it the
 *     handler is interrupted and the delivery counts as failed, so a hung handler cannot hold a
 *     message for ever (keep it below RabbitMQ's {@code consumer_timeout}, 30 minutes by default)
 * @param retry how long a failed message waits before its next delivery
 * @param oldestEvery priorities are strict except that, of every {@code oldestEvery} deliveries a
 *     consumer takes, one goes to the oldest waiting message whatever its priority, so that triggered
 *     work overtakes bulk work without starving it; 0 makes priorities strict
 */
public record QueueSpec(
    String name,
    int maxPriority,
    int maxDeliveries,
    Duration visibilityTimeout,
    Duration handlerTimeout,
    RetryPolicy retry,
    int oldestEvery) {
  public static final int MAX_PRIORITY = 9;
  public static final int DEFAULT_MAX_DELIVERIES = 5;
  public static final Duration DEFAULT_VISIBILITY_TIMEOUT = Duration.ofMinutes(5);
  public static final Duration DEFAULT_HANDLER_TIMEOUT = Duration.ofMinutes(15);
  public static final int DEFAULT_OLDEST_EVERY = 10;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  public QueueSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
    Objects.requireNonNull(handlerTimeout, "handlerTimeout");
    Objects.requireNonNull(retry, "retry");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "queue name must be 1-200 of [A-Za-z0-9._-] but was '" + name + "'");
    }
    if (maxPriority < 0 || maxPriority > MAX_PRIORITY) {
      throw new IllegalArgumentException(
          "maxPriority must be within 0.." + MAX_PRIORITY + " but was " + maxPriority);
    }
    if (maxDeliveries < 1)
      throw new IllegalArgumentException(
          "maxDeliveries must be at least 1 but was " + maxDeliveries);
    if (visibilityTimeout.toMillis() < 1)
      throw new IllegalArgumentException("visibilityTimeout must be positive");
    if (handlerTimeout.toMillis() < 1)
      throw new IllegalArgumentException("handlerTimeout must be positive");
    if (oldestEvery < 0 || oldestEvery == 1)
      throw new IllegalArgumentException(
          "oldestEvery must be 0 (strict priorities) or at least 2 but was " + oldestEvery);
  }

  /** A queue with the default handler timeout, retry policy and fairness. */
  public QueueSpec(String name, int maxPriority, int maxDeliveries, Duration visibilityTimeout) {
    this(
        name,
        maxPriority,
        maxDeliveries,
        visibilityTimeout,
        DEFAULT_HANDLER_TIMEOUT,
        RetryPolicy.DEFAULT,
        DEFAULT_OLDEST_EVERY);
  }

  public static QueueSpec of(String name) {
    return new QueueSpec(name, MAX_PRIORITY, DEFAULT_MAX_DELIVERIES, DEFAULT_VISIBILITY_TIMEOUT);
  }

  public QueueSpec withRetry(RetryPolicy policy) {
    return new QueueSpec(
        name, maxPriority, maxDeliveries, visibilityTimeout, handlerTimeout, policy, oldestEvery);
  }

  public QueueSpec withOldestEvery(int every) {
    return new QueueSpec(
        name, maxPriority, maxDeliveries, visibilityTimeout, handlerTimeout, retry, every);
  }

  public QueueSpec withHandlerTimeout(Duration timeout) {
    return new QueueSpec(
        name, maxPriority, maxDeliveries, visibilityTimeout, timeout, retry, oldestEvery);
  }

  public String deadLetterName() {
    return name + ".dead";
  }
}

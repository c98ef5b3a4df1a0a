package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * AMQP headers: the message's own string headers plus Tidings' bookkeeping under the
 * {@code x-tidings-} prefix, which is therefore reserved and stripped before a handler sees them, as
 * are the broker's own dead-lettering and stream headers.
 */
final class TidingsHeaders {
  static final String PREFIX = "x-tidings-";
  /** Deliveries that happened before this copy of the message was published. */
  static final String DELIVERIES = PREFIX + "deliveries";

  static final String MAX_DELIVERIES = PREFIX + "max-deliveries";
  /** The declaring publisher's retry policy, "initialMillis multiplier maxMillis", for consumers that did not declare. */
  static final String RETRY = PREFIX + "retry";

  static final String REASON = PREFIX + "reason";
  /** On a dead-letter stream's tombstone: the message id of the letter it resolves (requeued or dropped). */
  static final String RESOLVES = PREFIX + "resolves";

  static final String DEAD_AT = PREFIX + "dead-at";
  /**
   * When the message was first published, in microseconds: its age for the oldest-message share. A
   * delayed message's is its not-before, so that its age counts from when it became due.
   */
  static final String PUBLISHED = PREFIX + "published";

  /** A delayed message's not-before, in microseconds: its first delivery measures how late it is. */
  static final String NOT_BEFORE = PREFIX + "not-before";
  /**
   * Routes a message leaving a delay queue back to its lane, see {@link RabbitLayout}. Not under
   * {@code x-}: a headers exchange ignores binding arguments whose names start with it, and would
   * route the message to every lane. Reserved like the {@code x-tidings-} headers.
   */
  static final String LANE = "tidings-lane";

  private static final String[] BROKER_PREFIXES = {
    "x-death", "x-first-death-", "x-last-death-", "x-stream-", "x-delivery-count", LANE
  };

  private TidingsHeaders() {}

  static Map<String, Object> amqp(Map<String, String> headers, Map<String, Object> bookkeeping) {
    var amqp = new HashMap<String, Object>(headers.size() + bookkeeping.size() + 2);
    headers.forEach((key, value) -> {
      if (!key.startsWith(PREFIX)) amqp.put(key, value);
    });
    amqp.putAll(bookkeeping);
    return amqp;
  }

  /** The headers of a received message minus the broker's, to publish it again with new bookkeeping. */
  static Map<String, Object> republished(
      Map<String, Object> received, Map<String, Object> bookkeeping) {
    var amqp = new HashMap<String, Object>();
    if (received != null) {
      received.forEach((key, value) -> {
        if (!brokers(key)) amqp.put(key, value);
      });
    }
    amqp.putAll(bookkeeping);
    return amqp;
  }

  static Map<String, String> user(Map<String, Object> amqp) {
    if (amqp == null) return Map.of();
    var headers = new HashMap<String, String>();
    amqp.forEach((key, value) -> {
      if (!key.startsWith(PREFIX) && !brokers(key) && value != null)
        headers.put(key, value.toString()); // LongString.toString() is UTF-8
    });
    return Map.copyOf(headers);
  }

  private static boolean brokers(String key) {
    for (String prefix : BROKER_PREFIXES) if (key.startsWith(prefix)) return true;
    return false;
  }

  static int integer(Map<String, Object> amqp, String key, int fallback) {
    return amqp != null && amqp.get(key) instanceof Number number ? number.intValue() : fallback;
  }

  static String text(Map<String, Object> amqp, String key, String fallback) {
    if (amqp == null) return fallback;
    Object value = amqp.get(key);
    return value == null ? fallback : value.toString();
  }

  static long number(Map<String, Object> amqp, String key, long fallback) {
    if (amqp == null) return fallback;
    return amqp.get(key) instanceof Number number ? number.longValue() : fallback;
  }

  static long publishedAt(AMQP.BasicProperties properties) {
    return number(properties.getHeaders(), PUBLISHED, Long.MAX_VALUE);
  }

  static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  static Instant instantOfMicros(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000);
  }

  static String retryStamp(RetryPolicy retry) {
    return retry.initialBackoff().toMillis() + " " + retry.multiplier() + " "
        + retry.maxBackoff().toMillis();
  }

  /** The spec a consumer that never declared {@code queue} goes by: what the publisher stamped, else the defaults. */
  static QueueSpec stampedSpec(String queue, int maxPriority, Map<String, Object> amqp) {
    int maxDeliveries = integer(amqp, MAX_DELIVERIES, QueueSpec.DEFAULT_MAX_DELIVERIES);
    RetryPolicy retry = parseRetry(text(amqp, RETRY, "")).orElse(RetryPolicy.DEFAULT);
    return new QueueSpec(
        queue,
        maxPriority,
        Math.max(1, maxDeliveries),
        QueueSpec.DEFAULT_VISIBILITY_TIMEOUT,
        QueueSpec.DEFAULT_HANDLER_TIMEOUT,
        retry,
        QueueSpec.DEFAULT_OLDEST_EVERY);
  }

  private static Optional<RetryPolicy> parseRetry(String stamp) {
    String[] parts = stamp.trim().split(" ");
    if (parts.length != 3) return Optional.empty();
    try {
      return Optional.of(new RetryPolicy(
          Duration.ofMillis(Long.parseLong(parts[0])),
          Double.parseDouble(parts[1]),
          Duration.ofMillis(Long.parseLong(parts[2]))));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}

package dev.tidings.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * @param name letters, digits, dots, dashes and underscores
 * @param maxPriority priorities run 0..maxPriority (at most 9: single digits, as RabbitMQ advises)
 * @param maxDeliveries deliveries before a message that keeps failing is dead-lettered
 * @param visibilityTimeout how long a consumer may hold a message without acknowledging it before it is
 *     presumed dead and the message is redelivered (where the backend does not notice a dead consumer itself)
 */
public record QueueSpec(
    String name, int maxPriority, int maxDeliveries, Duration visibilityTimeout) {
  public static final int MAX_PRIORITY = 9;
  public static final int DEFAULT_MAX_DELIVERIES = 5;
  public static final Duration DEFAULT_VISIBILITY_TIMEOUT = Duration.ofMinutes(5);
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  public QueueSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
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
  }

  public static QueueSpec of(String name) {
    return new QueueSpec(name, MAX_PRIORITY, DEFAULT_MAX_DELIVERIES, DEFAULT_VISIBILITY_TIMEOUT);
  }

  public String deadLetterName() {
    return name + ".dead";
  }
}

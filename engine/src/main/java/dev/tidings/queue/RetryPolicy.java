package dev.tidings.queue;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a message that failed waits before it is delivered again: {@code initialBackoff} after the
 * first failure, multiplied by {@code multiplier} after each further one, never more than
 * {@code maxBackoff}. An outage of what a handler calls (an SMTP server, a provider's API) then spends
 * the message's attempts over minutes instead of milliseconds.
 *
 * <p>The number of attempts is {@link QueueSpec#maxDeliveries()}; a message that used them all is
 * dead-lettered.
 */
public record RetryPolicy(Duration initialBackoff, double multiplier, Duration maxBackoff) {
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(Duration.ofSeconds(5), 4, Duration.ofMinutes(10));

  /** Redelivers at once: for tests and for handlers whose failures are never about time. */
  public static final RetryPolicy IMMEDIATE = new RetryPolicy(Duration.ZERO, 1, Duration.ZERO);

  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (initialBackoff.isNegative())
      throw new IllegalArgumentException("initialBackoff must not be negative");
    if (maxBackoff.compareTo(initialBackoff) < 0)
      throw new IllegalArgumentException("maxBackoff (" + maxBackoff
          + ") must be at least initialBackoff (" + initialBackoff + ")");
    if (!(multiplier >= 1 && multiplier <= 100))
      throw new IllegalArgumentException("multiplier must be within 1..100 but was " + multiplier);
  }

  public static RetryPolicy exponential(Duration initialBackoff, Duration maxBackoff) {
    return new RetryPolicy(initialBackoff, 2, maxBackoff);
  }

  /**
   * The wait before the next delivery of a message whose delivery number {@code failedDelivery}
   * (1 for the first) failed.
   */
  public Duration backoffAfter(int failedDelivery) {
    if (failedDelivery < 1)
      throw new IllegalArgumentException("deliveries count from 1 but was " + failedDelivery);
    double millis = initialBackoff.toMillis() * Math.pow(multiplier, failedDelivery - 1);
    return millis >= maxBackoff.toMillis() ? maxBackoff : Duration.ofMillis((long) millis);
  }
}

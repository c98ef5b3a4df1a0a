package dev.tidings.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A message to enqueue: an opaque body, a priority (higher first), string headers and, optionally,
 * the instant before which it must not be delivered ({@link #notBefore(Instant)}; see
 * {@link WorkQueue#publish} for what a queue promises about it).
 */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; equality compares its content
public record Message(
    byte[] body,
    int priority,
    Map<String, String> headers,
    @Nullable Instant notBefore) {
  public Message {
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
    if (priority < 0 || priority > QueueSpec.MAX_PRIORITY) {
      throw new IllegalArgumentException(
          "priority must be within 0.." + QueueSpec.MAX_PRIORITY + " but was " + priority);
    }
  }

  /** A message to deliver as soon as a consumer is free. */
  public Message(byte[] body, int priority, Map<String, String> headers) {
    this(body, priority, headers, null);
  }

  public static Message of(byte[] body, int priority) {
    return new Message(body, priority, Map.of());
  }

  /**
   * This message, to be delivered at {@code instant} or after it; an instant that has passed when it
   * is published makes no difference.
   */
  public Message notBefore(Instant instant) {
    return new Message(body, priority, headers, Objects.requireNonNull(instant, "instant"));
  }

  /**
   * How long after {@code now} this message is due: zero when it has no not-before or that instant is
   * not after {@code now}.
   *
   * @throws IllegalArgumentException when it is more than {@link WorkQueue#MAX_DELAY} away, which no
   *     queue accepts
   */
  public Duration delayAfter(Instant now) {
    if (notBefore == null || !notBefore.isAfter(now)) return Duration.ZERO;
    Duration delay = Duration.between(now, notBefore);
    if (delay.compareTo(WorkQueue.MAX_DELAY) > 0) {
      throw new IllegalArgumentException("not before " + notBefore + " is " + delay
          + " away, more than the longest delay a queue takes (" + WorkQueue.MAX_DELAY + ")");
    }
    return delay;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Message that
        && priority == that.priority
        && Arrays.equals(body, that.body)
        && headers.equals(that.headers)
        && Objects.equals(notBefore, that.notBefore);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(body), priority, headers, notBefore);
  }

  @Override
  public String toString() {
    return "Message[" + body.length + " bytes, priority " + priority + ", headers " + headers
        + (notBefore == null ? "" : ", not before " + notBefore) + "]";
  }
}

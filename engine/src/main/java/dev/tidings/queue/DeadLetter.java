package dev.tidings.queue;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/** A message that was given up on, with why and after how many deliveries. */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; equality compares its content
public record DeadLetter(
    String messageId,
    byte[] body,
    int priority,
    int deliveries,
    String reason,
    Instant deadAt,
    Map<String, String> headers) {
  @Override
  public boolean equals(Object other) {
    return other instanceof DeadLetter that
        && messageId.equals(that.messageId)
        && priority == that.priority
        && deliveries == that.deliveries
        && Arrays.equals(body, that.body)
        && reason.equals(that.reason)
        && deadAt.equals(that.deadAt)
        && headers.equals(that.headers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        messageId, Arrays.hashCode(body), priority, deliveries, reason, deadAt, headers);
  }

  @Override
  public String toString() {
    return "DeadLetter[" + messageId + ", " + body.length + " bytes, priority " + priority
        + ", after " + deliveries + " deliveries: " + reason + ", at " + deadAt + "]";
  }
}

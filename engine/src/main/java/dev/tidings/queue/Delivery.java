package dev.tidings.queue;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * One delivery of a message to a consumer. {@code deliveryCount} is 1 the first time; more means this
 * message was handed out before (a consumer died, or its handler asked for a retry).
 */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; equality compares its content
public record Delivery(
    String messageId, byte[] body, int priority, int deliveryCount, Map<String, String> headers) {
  public boolean redelivered() {
    return deliveryCount > 1;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Delivery that
        && messageId.equals(that.messageId)
        && priority == that.priority
        && deliveryCount == that.deliveryCount
        && Arrays.equals(body, that.body)
        && headers.equals(that.headers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(messageId, Arrays.hashCode(body), priority, deliveryCount, headers);
  }

  @Override
  public String toString() {
    return "Delivery[" + messageId + ", " + body.length + " bytes, priority " + priority
        + ", delivery " + deliveryCount + ", headers " + headers + "]";
  }
}

package dev.tidings.queue;

import java.util.Map;

/**
 * One delivery of a message to a consumer. {@code deliveryCount} is 1 the first time; more means this
 * message was handed out before (a consumer died, or its handler asked for a retry).
 */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; compare bodies with Arrays.equals
public record Delivery(
    String messageId, byte[] body, int priority, int deliveryCount, Map<String, String> headers) {
  public boolean redelivered() {
    return deliveryCount > 1;
  }
}

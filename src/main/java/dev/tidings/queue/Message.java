package dev.tidings.queue;

import java.util.Map;
import java.util.Objects;

/** A message to enqueue: an opaque body, a priority (higher first) and string headers. */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; compare bodies with Arrays.equals
public record Message(byte[] body, int priority, Map<String, String> headers) {
  public Message {
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
    if (priority < 0 || priority > QueueSpec.MAX_PRIORITY) {
      throw new IllegalArgumentException(
          "priority must be within 0.." + QueueSpec.MAX_PRIORITY + " but was " + priority);
    }
  }

  public static Message of(byte[] body, int priority) {
    return new Message(body, priority, Map.of());
  }
}

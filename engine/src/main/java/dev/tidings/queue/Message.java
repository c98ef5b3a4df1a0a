package dev.tidings.queue;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/** A message to enqueue: an opaque body, a priority (higher first) and string headers. */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; equality compares its content
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

  @Override
  public boolean equals(Object other) {
    return other instanceof Message that
        && priority == that.priority
        && Arrays.equals(body, that.body)
        && headers.equals(that.headers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(body), priority, headers);
  }

  @Override
  public String toString() {
    return "Message[" + body.length + " bytes, priority " + priority + ", headers " + headers + "]";
  }
}

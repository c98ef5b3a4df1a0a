package dev.tidings.queue.postgres;

import dev.tidings.queue.Delivery;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A message this node leased; {@code token} proves the lease is still ours when we settle it. {@code
 * lateness}: for the first delivery of a delayed message, how long after its not-before it was
 * claimed, by the database's clock; null otherwise.
 */
@SuppressWarnings("ArrayRecordComponent") // the body as read, not copied or compared
record Claimed(
    long id,
    UUID token,
    byte[] body,
    int priority,
    int deliveries,
    Map<String, String> headers,
    @Nullable Duration lateness) {
  Delivery toDelivery() {
    return new Delivery(Long.toString(id), body, priority, deliveries, headers);
  }
}

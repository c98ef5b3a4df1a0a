package dev.tidings.queue.postgres;

import dev.tidings.queue.Delivery;
import java.util.Map;
import java.util.UUID;

/** A message this node leased; {@code token} proves the lease is still ours when we settle it. */
@SuppressWarnings("ArrayRecordComponent") // the body as read, not copied or compared
record Claimed(
    long id, UUID token, byte[] body, int priority, int deliveries, Map<String, String> headers) {
  Delivery toDelivery() {
    return new Delivery(Long.toString(id), body, priority, deliveries, headers);
  }
}

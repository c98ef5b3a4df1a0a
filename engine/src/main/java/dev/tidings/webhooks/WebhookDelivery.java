package dev.tidings.webhooks;

import dev.tidings.queue.Codec;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One event on its way to one endpoint: the work queue's message.
 *
 * @param endpointId the endpoint it goes to
 * @param eventId the event's id, sent as {@code webhook-id}
 * @param eventType the event's CloudEvents type, for the dead letter's row
 * @param body the event's CloudEvents JSON, exactly the bytes sent and signed
 * @param attempt 1 for the first try, one more on each retry
 */
public record WebhookDelivery(
    String endpointId, String eventId, String eventType, String body, int attempt) {
  /**
   * Every webhook delivery. The sender settles each message itself (a retry is a new, delayed
   * message), so the queue's own retries only cover a sender that died or could not reach the
   * database.
   */
  public static final Topic<WebhookDelivery> TOPIC = new Topic<>(
      QueueSpec.of("tidings.webhooks.deliveries").withHandlerTimeout(Duration.ofMinutes(2)),
      Codec.json(WebhookDelivery.class));

  public byte[] bytes() {
    return body.getBytes(StandardCharsets.UTF_8);
  }

  public WebhookDelivery next() {
    return new WebhookDelivery(endpointId, eventId, eventType, body, attempt + 1);
  }

  public WebhookDelivery first() {
    return new WebhookDelivery(endpointId, eventId, eventType, body, 1);
  }
}

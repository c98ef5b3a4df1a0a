package dev.tidings.delivery;

import java.util.List;
import java.util.Optional;

/**
 * Where the edges hand receipts: when {@link #accept} returns, the receipts are durably queued
 * (RabbitMQ publisher confirms, or the queue table's commit), so a webhook may answer 2xx. When they
 * cannot be queued now (the queue is unreachable and the bounded batcher is full) it throws {@link
 * dev.tidings.queue.QueueUnavailableException}: the webhook answers 503 with {@code Retry-After} and
 * the provider retries. Thread-safe.
 */
public interface ReceiptSink {

  void accept(List<Receipt> receipts);

  /** Events a provider sent that map to no status: kept apart and counted, never a failed batch. */
  void unknown(ReceiptSource source, String eventType, String rawEvent);

  /**
   * As {@link #unknown(ReceiptSource, String, String)}, with the provider's id of the event
   * (SendGrid's {@code sg_event_id}, the SNS {@code MessageId}): an event whose id was counted
   * already (the provider delivered the same request again) is not counted again.
   */
  default void unknown(
      ReceiptSource source, String eventType, String rawEvent, Optional<String> eventId) {
    unknown(source, eventType, rawEvent);
  }
}

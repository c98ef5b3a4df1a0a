package dev.tidings.delivery;

import dev.tidings.campaign.send.SendReceipt;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The sender's own outcomes as receipts: they are a message's send record, which makes it known (and
 * applies what was parked for it). Taken by the SMTP server: SENT; a temporary refusal: DEFERRED; a
 * permanent refusal by our own relay: DROPPED (the relay would not take it, which says nothing about the
 * address, so nothing is suppressed); an answer lost after the data went out: IN_GATEWAY (it reached
 * the gateway, its fate is unknown until a provider tells); skipped on purpose: QUEUED, so that the
 * contact rate counts it as planned and not contacted.
 */
public final class SendOutcomeReceipts implements Topic.BatchOf<SendReceipt> {
  private final ReceiptStore store;

  public SendOutcomeReceipts(ReceiptStore store) {
    this.store = store;
  }

  @Override
  public BatchResult handle(List<Topic.Received<SendReceipt>> batch) {
    List<Receipt> receipts = new ArrayList<>(batch.size());
    for (Topic.Received<SendReceipt> received : batch) receipts.add(receipt(received.value()));
    store.apply(receipts, List.of());
    return BatchResult.ACK_ALL;
  }

  static Receipt receipt(SendReceipt outcome) {
    DeliveryStatus status = switch (outcome.status()) {
      case SENT -> DeliveryStatus.SENT;
      case DEFERRED -> DeliveryStatus.DEFERRED;
      case FAILED -> DeliveryStatus.DROPPED;
      case UNKNOWN -> DeliveryStatus.IN_GATEWAY;
      case SKIPPED -> DeliveryStatus.QUEUED;
      case UNSUBSCRIBED -> DeliveryStatus.UNSUBSCRIBED;
    };
    return new Receipt(
        outcome.messageId(),
        status,
        outcome.timestamp(),
        outcome.status() == SendReceipt.Status.UNSUBSCRIBED
            ? ReceiptSource.UNSUBSCRIBE
            : ReceiptSource.SMTP,
        outcome.reason().isBlank() ? Optional.empty() : Optional.of(outcome.reason()),
        Optional.empty(),
        Optional.empty(),
        false,
        Optional.empty(),
        Optional.empty());
  }
}

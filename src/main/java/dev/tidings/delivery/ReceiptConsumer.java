package dev.tidings.delivery;

import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Topic;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the receipts of a batch of queue messages in one transaction and acknowledges them after
 * it commits. A redelivered message (a consumer died between commit and ack) changes nothing: every
 * count is of rows that were new.
 */
public final class ReceiptConsumer implements Topic.BatchOf<ReceiptBatch> {
  private final ReceiptStore store;

  public ReceiptConsumer(ReceiptStore store) {
    this.store = store;
  }

  @Override
  public BatchResult handle(List<Topic.Received<ReceiptBatch>> batch) {
    List<Receipt> receipts = new ArrayList<>();
    List<ReceiptStore.Unknown> unknown = new ArrayList<>();
    for (Topic.Received<ReceiptBatch> received : batch) {
      receipts.addAll(received.value().receipts());
      unknown.addAll(received.value().unknown());
    }
    store.apply(receipts, unknown);
    return BatchResult.ACK_ALL;
  }
}

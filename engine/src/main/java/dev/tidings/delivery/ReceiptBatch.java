package dev.tidings.delivery;

import java.util.List;

/** Receipts and unknown provider events that travel in one queue message. */
public record ReceiptBatch(List<Receipt> receipts, List<ReceiptStore.Unknown> unknown) {
  public ReceiptBatch {
    receipts = List.copyOf(receipts);
    unknown = List.copyOf(unknown);
  }
}

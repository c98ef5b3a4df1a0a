package dev.tidings.queue;

import java.util.Map;

/**
 * What a {@link BatchHandler} decided: every delivery of the batch is acknowledged except those named
 * in {@code exceptions}, by message id, which are settled with their own disposition.
 */
public record BatchResult(Map<String, Disposition> exceptions) {
  public static final BatchResult ACK_ALL = new BatchResult(Map.of());

  public BatchResult {
    exceptions = Map.copyOf(exceptions);
  }

  public static BatchResult except(Map<String, Disposition> exceptions) {
    return new BatchResult(exceptions);
  }

  public Disposition dispositionOf(Delivery delivery) {
    return exceptions.getOrDefault(delivery.messageId(), Disposition.ACK);
  }
}

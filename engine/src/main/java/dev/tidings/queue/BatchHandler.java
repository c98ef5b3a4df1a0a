package dev.tidings.queue;

import java.util.List;

/**
 * Handles up to a subscription's batch size of deliveries in one call, so that work which is cheaper in
 * sets (inserting receipts, applying events) costs one call and one set-based acknowledgement per
 * batch instead of one per message. An exception counts as {@link Disposition.Retry} for the whole batch.
 */
@FunctionalInterface
public interface BatchHandler {
  BatchResult handle(List<Delivery> batch) throws Exception;
}

package dev.tidings.delivery;

import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Told of the funnel steps a batch of receipts reached for the first time, inside the transaction
 * that records them: a capability that counts steps of its own (experiments count people's first opens
 * and clicks per variant) counts each exactly once, with the funnel, and never reads its tables.
 */
@FunctionalInterface
public interface StepListener {
  StepListener NONE = (handle, steps) -> {};

  /** A message reached {@code step} for the first time. */
  record AddedStep(String messageId, long campaignId, FunnelStep step) {}

  /** Runs in the receipts' transaction; a failure rolls the batch back, to be tried again. */
  void added(Handle handle, List<AddedStep> steps);
}

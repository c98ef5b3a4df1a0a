package dev.tidings.delivery;

import java.time.Instant;
import java.util.ArrayList;
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

  /** A message reached {@code step} for the first time, at {@code at} (the receipt's time). */
  record AddedStep(String messageId, long campaignId, FunnelStep step, Instant at) {}

  /** Runs in the receipts' transaction; a failure rolls the batch back, to be tried again. */
  void added(Handle handle, List<AddedStep> steps);

  /** Each of {@code listeners} in turn, in the same transaction. */
  static StepListener all(StepListener... listeners) {
    return (handle, steps) -> {
      for (StepListener listener : listeners) listener.added(handle, steps);
    };
  }

  /** Told only of people's first opens and clicks, by message id. */
  @FunctionalInterface
  interface PeopleSteps {
    void added(Handle handle, List<String> openedMessages, List<String> clickedMessages);
  }

  /** A listener that passes people's first opens and clicks on, and nothing when a batch has none. */
  static StepListener ofPeople(PeopleSteps people) {
    return (handle, steps) -> {
      List<String> opened = new ArrayList<>();
      List<String> clicked = new ArrayList<>();
      for (AddedStep step : steps) {
        if (step.step() == FunnelStep.HUMAN_OPENED) opened.add(step.messageId());
        if (step.step() == FunnelStep.HUMAN_CLICKED) clicked.add(step.messageId());
      }
      if (!opened.isEmpty() || !clicked.isEmpty()) people.added(handle, opened, clicked);
    };
  }
}

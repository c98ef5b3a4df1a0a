package dev.tidings.journeys;

import java.time.Instant;

/** What happens to a person next, with where they are once it is decided. */
public sealed interface Decision {
  Instance instance();

  /** Nothing until {@code until}: look again then (a queue message not delivered before it). */
  record Sleep(Instance instance, Instant until) implements Decision {}

  /**
   * Send the step's email now, unless the person is held out, in which case it is recorded as what
   * they would have been sent; either way they then go on to the step's next.
   */
  record Send(Instance instance, Step.Send step) implements Decision {}

  /** The person's journey ends. */
  record Exit(Instance instance, Reason reason) implements Decision {}

  enum Reason {
    /** They reached the end of the steps. */
    COMPLETED,
    /** They did the journey's goal. */
    GOAL
  }
}

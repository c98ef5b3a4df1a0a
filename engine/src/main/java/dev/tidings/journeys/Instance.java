package dev.tidings.journeys;

import java.time.Instant;
import java.util.List;

/**
 * One person's way through one version of a journey: which of their entries it is, whether they are
 * held out, and the step they are at since when.
 *
 * @param entry the person's entries into this journey so far, this one included (from 1)
 * @param items the products the entry was about (the cart's, the one back in stock), for the emails
 * @param at the step the person is at
 * @param since when they arrived at it (for a wait, when it was due rather than when it was noticed,
 *     so late work does not push every later step later)
 */
public record Instance(
    long journeyId,
    int version,
    String subscriberId,
    int entry,
    Instant enteredAt,
    boolean heldOut,
    List<String> items,
    String at,
    Instant since) {
  public Instance {
    items = List.copyOf(items);
    if (entry < 1) throw new IllegalArgumentException("entry counts from 1, got " + entry);
  }

  /** A person entering: at the journey's first step. */
  public static Instance entering(
      long journeyId,
      int version,
      Journey journey,
      String subscriberId,
      int entry,
      Instant at,
      List<String> items) {
    return new Instance(
        journeyId,
        version,
        subscriberId,
        entry,
        at,
        HoldOut.holds(journeyId, subscriberId, journey.holdOut()),
        items,
        journey.first().id(),
        at);
  }

  /** The same person at {@code step} from {@code arrived} on. */
  public Instance movedTo(String step, Instant arrived) {
    return new Instance(
        journeyId, version, subscriberId, entry, enteredAt, heldOut, items, step, arrived);
  }
}

package dev.tidings.journeys;

import java.time.Instant;
import java.util.Optional;

/** Whether a person the trigger names may enter now, by the journey's entry rules. */
public sealed interface Admission {
  /** They enter; {@code entry} counts their entries into this journey, this one included. */
  record Admitted(int entry) implements Admission {}

  /** They do not enter now, and why. */
  record Refused(Why why) implements Admission {}

  enum Why {
    /** They are inside this journey already: one at a time per person. */
    ALREADY_INSIDE,
    /** Their last entry is more recent than the journey lets them enter again. */
    TOO_SOON,
    /** The journey is for a segment they are not in. */
    NOT_IN_SEGMENT
  }

  /**
   * The rules applied to what is known of the person in this journey.
   *
   * @param inside whether they are inside it now
   * @param entries how many times they entered it before
   * @param lastEntry when they last entered it, if ever
   * @param inSegment whether they are in the entry segment (asked only when the rules name one)
   */
  static Admission decide(
      EntryRules rules,
      boolean inside,
      int entries,
      Optional<Instant> lastEntry,
      boolean inSegment,
      Instant now) {
    if (inside) return new Refused(Why.ALREADY_INSIDE);
    if (lastEntry.isPresent() && now.isBefore(lastEntry.get().plus(rules.reentryAfter())))
      return new Refused(Why.TOO_SOON);
    if (rules.segment() != null && !inSegment) return new Refused(Why.NOT_IN_SEGMENT);
    return new Admitted(entries + 1);
  }
}

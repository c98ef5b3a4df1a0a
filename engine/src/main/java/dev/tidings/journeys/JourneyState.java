package dev.tidings.journeys;

import java.util.EnumSet;
import java.util.Set;

/** Whether a journey lets people in and moves the people inside. */
public enum JourneyState {
  /** Saved; nobody enters, nothing runs. */
  DRAFT,
  /** People enter and move through it. */
  ACTIVE,
  /** Nobody enters and nobody moves; activating it again takes everyone on from where they were. */
  PAUSED,
  /** Nobody enters; the people inside go on to the end. */
  DRAINING;

  /**
   * The states a journey may become this one from: activated from a draft, paused or draining;
   * paused from active or draining; drained from active or paused; never back to a draft.
   */
  public Set<JourneyState> reachedFrom() {
    return switch (this) {
      case DRAFT -> EnumSet.noneOf(JourneyState.class);
      case ACTIVE -> EnumSet.of(DRAFT, PAUSED, DRAINING);
      case PAUSED -> EnumSet.of(ACTIVE, DRAINING);
      case DRAINING -> EnumSet.of(ACTIVE, PAUSED);
    };
  }

  public boolean admits() {
    return this == ACTIVE;
  }

  public boolean moves() {
    return this == ACTIVE || this == DRAINING;
  }
}

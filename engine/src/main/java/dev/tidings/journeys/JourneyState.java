package dev.tidings.journeys;

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

  public boolean admits() {
    return this == ACTIVE;
  }

  public boolean moves() {
    return this == ACTIVE || this == DRAINING;
  }
}

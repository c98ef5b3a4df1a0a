package dev.tidings.activity;

/** What a request of events did: how many were stored, and how many were replays of an event id seen before. */
public record IntakeResult(long accepted, long duplicates) {
  public static final IntakeResult NOTHING = new IntakeResult(0, 0);

  public IntakeResult {
    if (accepted < 0 || duplicates < 0)
      throw new IllegalArgumentException(
          "counts must be >= 0, got " + accepted + " and " + duplicates);
  }

  IntakeResult plus(long stored, long replays) {
    return new IntakeResult(accepted + stored, duplicates + replays);
  }
}

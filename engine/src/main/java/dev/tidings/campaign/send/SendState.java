package dev.tidings.campaign.send;

/** Where a run is; COMPLETED* only when sent + failed + unknown + skipped = planned. */
public enum SendState {
  RUNNING,
  PAUSED,
  CANCELLED,
  COMPLETED,
  COMPLETED_WITH_ERRORS;

  public boolean finished() {
    return this == CANCELLED || this == COMPLETED || this == COMPLETED_WITH_ERRORS;
  }
}

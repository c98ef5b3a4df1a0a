package dev.tidings.campaign;

import dev.tidings.campaign.send.SendState;

/**
 * Where a campaign is. DRAFT and SCHEDULED belong to the definition (editable); from RUNNING on, the
 * send pipeline's run is the authority and {@link #of(SendState)} says what its state means here.
 */
public enum CampaignState {
  DRAFT,
  SCHEDULED,
  RUNNING,
  PAUSED,
  CANCELLED,
  COMPLETED,
  COMPLETED_WITH_ERRORS;

  public boolean editable() {
    return this == DRAFT || this == SCHEDULED;
  }

  public static CampaignState of(SendState state) {
    return switch (state) {
      case RUNNING -> RUNNING;
      case PAUSED -> PAUSED;
      case CANCELLED -> CANCELLED;
      case COMPLETED -> COMPLETED;
      case COMPLETED_WITH_ERRORS -> COMPLETED_WITH_ERRORS;
    };
  }
}

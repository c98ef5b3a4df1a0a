package dev.tidings.journeys;

/** Makes the campaigns a ready-made journey sends, as drafts a shop then edits. */
@FunctionalInterface
public interface CampaignDrafts {
  /**
   * A draft campaign with this content from {@code fromEmail} (and {@code fromName}, when not blank);
   * answers its id.
   */
  long draft(JourneyTemplates.Email email, String fromEmail, String fromName);
}

package dev.tidings.events.campaign;

import dev.tidings.events.DomainEvent;

/** Something that happened to a campaign's run. */
public sealed interface CampaignEvent extends DomainEvent permits HandedOver, RunCompleted {
  long campaignId();

  long runId();

  @Override
  default String subject() {
    return Long.toString(campaignId());
  }
}

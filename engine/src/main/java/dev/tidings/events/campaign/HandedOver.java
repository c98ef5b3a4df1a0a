package dev.tidings.events.campaign;

import java.time.Instant;

/** A run of a campaign was handed over to sending: {@code messages} emails will go out. */
public record HandedOver(long campaignId, long runId, long messages, Instant time)
    implements CampaignEvent {}

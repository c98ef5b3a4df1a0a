package dev.tidings.events.campaign;

import java.time.Instant;

/** A run of a campaign completed: {@code sent} emails went out, {@code failed} could not be sent. */
public record RunCompleted(long campaignId, long runId, long sent, long failed, Instant time)
    implements CampaignEvent {}

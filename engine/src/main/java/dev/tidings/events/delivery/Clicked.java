package dev.tidings.events.delivery;

import java.time.Instant;

/** A person (not a scanner) clicked a link in the email for the first time. */
public record Clicked(String messageId, long campaignId, String subscriberId, Instant time)
    implements FunnelEvent {}

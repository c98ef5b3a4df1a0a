package dev.tidings.events.delivery;

import java.time.Instant;

/** The email bounced: the address is suppressed. */
public record Bounced(String messageId, long campaignId, String subscriberId, Instant time)
    implements FunnelEvent {}

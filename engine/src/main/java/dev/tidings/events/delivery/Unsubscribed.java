package dev.tidings.events.delivery;

import java.time.Instant;

/** The person unsubscribed through the email. */
public record Unsubscribed(String messageId, long campaignId, String subscriberId, Instant time)
    implements FunnelEvent {}

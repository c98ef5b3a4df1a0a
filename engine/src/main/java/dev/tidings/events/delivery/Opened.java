package dev.tidings.events.delivery;

import java.time.Instant;

/** A person (not a proxy or a scanner) opened the email for the first time. */
public record Opened(String messageId, long campaignId, String subscriberId, Instant time)
    implements FunnelEvent {}

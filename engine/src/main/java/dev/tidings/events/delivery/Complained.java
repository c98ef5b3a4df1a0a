package dev.tidings.events.delivery;

import java.time.Instant;

/** The person marked the email as spam: the address is suppressed. */
public record Complained(String messageId, long campaignId, String subscriberId, Instant time)
    implements FunnelEvent {}

package dev.tidings.events.delivery;

import java.time.Instant;

/** The receiving server accepted the email. */
public record Delivered(String messageId, long campaignId, String subscriberId, Instant time)
    implements FunnelEvent {}

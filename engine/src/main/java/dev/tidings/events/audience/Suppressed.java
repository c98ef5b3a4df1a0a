package dev.tidings.events.audience;

import java.time.Instant;

/** A subscriber's address is suppressed: {@code reason} is bounce, complaint or unsubscribe. */
public record Suppressed(String subscriberId, String reason, Instant time)
    implements AudienceEvent {}

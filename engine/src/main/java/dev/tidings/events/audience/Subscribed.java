package dev.tidings.events.audience;

import java.time.Instant;

/** A subscriber was added with consent to receive campaigns. */
public record Subscribed(String subscriberId, Instant time) implements AudienceEvent {}

package dev.tidings.events.audience;

import java.time.Instant;

/** A subscriber withdrew consent: no campaign reaches them any more. */
public record Unsubscribed(String subscriberId, Instant time) implements AudienceEvent {}

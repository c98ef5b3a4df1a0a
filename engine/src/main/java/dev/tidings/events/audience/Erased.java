package dev.tidings.events.audience;

import java.time.Instant;

/** A subscriber was erased: listeners remove what they keep about them. */
public record Erased(String subscriberId, Instant time) implements AudienceEvent {}

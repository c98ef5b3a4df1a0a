package dev.tidings.events.audience;

import java.time.Instant;

/** A subscriber's consent changed: {@code consent} is the new one (subscribed, unsubscribed, ...). */
public record ConsentChanged(String subscriberId, String from, String consent, Instant time)
    implements AudienceEvent {}

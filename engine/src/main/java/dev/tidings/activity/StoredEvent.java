package dev.tidings.activity;

/** An event as stored: {@code seq} numbers the events in the order the intake wrote them. */
public record StoredEvent(long seq, ActivityEvent event) {}

package dev.tidings.queue;

import java.time.Instant;
import java.util.Map;

/** A message that was given up on, with why and after how many deliveries. */
public record DeadLetter(
    String messageId, byte[] body, int priority, int deliveries, String reason, Instant deadAt, Map<String, String> headers) {}

package dev.tidings.queue;

import java.time.Instant;
import java.util.Map;

/** A message that was given up on, with why and after how many deliveries. */
@SuppressWarnings(
    "ArrayRecordComponent") // an opaque body, not copied; compare bodies with Arrays.equals
public record DeadLetter(
    String messageId,
    byte[] body,
    int priority,
    int deliveries,
    String reason,
    Instant deadAt,
    Map<String, String> headers) {}

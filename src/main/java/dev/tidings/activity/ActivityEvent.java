package dev.tidings.activity;

import dev.tidings.Problems;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;

/**
 * One thing a user did with an item, as the {@code events} format describes it. An event id, when given,
 * makes a replay of the same event harmless.
 */
public record ActivityEvent(
    Optional<String> eventId,
    String userId,
    EventType type,
    String itemId,
    Instant timestamp,
    int quantity,
    Optional<BigDecimal> price) {

  public ActivityEvent {
    var problems = new Problems();
    problems.optionalText("eventId", eventId, 100);
    problems.id("userId", userId);
    problems.present("type", type);
    problems.requiredText("itemId", itemId, 64);
    problems.present("timestamp", timestamp);
    if (quantity < 1) problems.add("quantity must be an integer >= 1, got " + quantity);
    if (price == null) problems.add("missing required field 'price'");
    else price.ifPresent(p -> problems.nonNegative("price", p));
    problems.throwIfAny();
  }
}

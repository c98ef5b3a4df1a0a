package dev.tidings.activity;

import dev.tidings.Problems;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One thing a user did with an item, as the {@code events} format describes it. An event id, when given,
 * makes a replay of the same event harmless. A session id groups what was done in one visit, basket or
 * order: items are counted as seen (or bought) together within it. Attributes are free text pairs kept
 * with the event.
 */
public record ActivityEvent(
    Optional<String> eventId,
    String userId,
    EventType type,
    String itemId,
    Instant timestamp,
    int quantity,
    Optional<BigDecimal> price,
    Optional<String> sessionId,
    Map<String, String> attributes) {
  public static final int MAX_ATTRIBUTES = 50;
  private static final int MAX_ATTRIBUTE_LENGTH = 500;

  /** An event of no session and without attributes. */
  public ActivityEvent(
      Optional<String> eventId,
      String userId,
      EventType type,
      String itemId,
      Instant timestamp,
      int quantity,
      Optional<BigDecimal> price) {
    this(eventId, userId, type, itemId, timestamp, quantity, price, Optional.empty(), Map.of());
  }

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
    problems.optionalText("sessionId", sessionId, 100);
    if (attributes == null) problems.add("missing required field 'attributes'");
    else attributeProblems(attributes, problems);
    problems.throwIfAny();
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  private static void attributeProblems(Map<String, String> attributes, Problems problems) {
    if (attributes.size() > MAX_ATTRIBUTES)
      problems.add(
          "attributes must have at most " + MAX_ATTRIBUTES + " entries, got " + attributes.size());
    for (var entry : attributes.entrySet()) {
      if (entry.getKey().length() > MAX_ATTRIBUTE_LENGTH
          || entry.getValue().length() > MAX_ATTRIBUTE_LENGTH) {
        problems.add("attribute " + Problems.quote(entry.getKey())
            + " is too long: keys and values are at most " + MAX_ATTRIBUTE_LENGTH
            + " characters");
        return;
      }
    }
  }
}

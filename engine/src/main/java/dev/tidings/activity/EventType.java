package dev.tidings.activity;

import java.util.Locale;
import java.util.Optional;

/** What a user did; written in snake case in the formats ({@code add_to_cart}). */
public enum EventType {
  VIEW,
  CLICK,
  ADD_TO_CART,
  PURCHASE,
  FOLLOW,
  OPEN,
  EMAIL_CLICK;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<EventType> ofWire(String text) {
    for (EventType type : values()) if (type.wire().equals(text)) return Optional.of(type);
    return Optional.empty();
  }
}

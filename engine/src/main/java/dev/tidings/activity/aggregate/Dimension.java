package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
import java.util.Locale;
import java.util.Optional;

/** What an aggregation groups events by; brand and category come from the catalog's item. */
public enum Dimension {
  USER,
  ITEM,
  BRAND,
  CATEGORY,
  /** Another item of the event's session: the aggregation counts pairs (see {@link SessionPartners}). */
  CO_ITEM;

  /** Written once: every key a counting round builds names its dimensions. */
  private final String wire = name().toLowerCase(Locale.ROOT);

  public String wire() {
    return wire;
  }

  /** This dimension's value for the event, empty when the item does not have one (no brand). */
  Optional<String> valueOf(ActivityEvent event, ItemFacts item) {
    return switch (this) {
      case USER -> Optional.of(event.userId());
      case ITEM -> Optional.of(event.itemId());
      case BRAND -> item.brand();
      case CATEGORY -> item.category();
      case CO_ITEM -> Optional.empty();
    };
  }
}

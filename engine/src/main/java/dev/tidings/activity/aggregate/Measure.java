package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
import java.math.BigDecimal;
import java.util.Locale;

/** What an aggregation adds up per event. */
public enum Measure {
  /** One per event. */
  EVENTS,
  /** The event's quantity. */
  QUANTITY,
  /** Price times quantity; an event without a price adds nothing. */
  REVENUE,
  /**
   * One per person a day: only a user's first event on the aggregate that day adds one, so no one
   * person moves what everyone is shown (popularity, trending) by repeating themselves.
   */
  PEOPLE;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  double of(ActivityEvent event) {
    return switch (this) {
      case EVENTS, PEOPLE -> 1;
      case QUANTITY -> event.quantity();
      case REVENUE ->
        event
            .price()
            .map(price -> price.multiply(BigDecimal.valueOf(event.quantity())).doubleValue())
            .orElse(0.0);
    };
  }
}

package dev.tidings.recommend;

import dev.tidings.activity.EventType;

/**
 * How much one event says about taste: a purchase is a commitment, an add to cart nearly one, a click a
 * choice among many, a view little more than a passing glance. Other types (opens, follows) say nothing
 * about a product and weigh nothing.
 */
final class EventWeights {
  private EventWeights() {}

  static double of(EventType type) {
    return switch (type) {
      case PURCHASE -> 8.0;
      case ADD_TO_CART -> 4.0;
      case CLICK -> 2.0;
      case VIEW -> 1.0;
      case FOLLOW, OPEN, EMAIL_CLICK -> 0.0;
    };
  }
}

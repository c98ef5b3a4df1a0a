package dev.tidings.journeys;

import java.time.Duration;

/** What lets a person into a journey, heard from the typed events or found by a daily look. */
public sealed interface Trigger {
  /** They subscribed (with consent to campaigns). */
  record SignedUp() implements Trigger {}

  /**
   * They did {@code activity} (a view, an add to cart, a purchase) {@code times} times to the same
   * product within {@code within}: {@code times} 1 is any single such event.
   */
  record Did(String activity, int times, Duration within) implements Trigger {}

  /** They opened or clicked an email. */
  record Email(EmailStep step) implements Trigger {}

  /**
   * A product they {@code interest} within {@code within} (viewed, carted) is back in stock or cheaper.
   */
  record ProductNews(News news, Interest interest, Duration within) implements Trigger {}

  /** Their last purchase is {@code since} ago (win-back), found by a daily look, not an event. */
  record Lapsed(Duration since) implements Trigger {}

  /** The day and month of a date among their attributes (a birthday), found by a daily look. */
  record DateOf(String attribute) implements Trigger {}

  enum EmailStep {
    OPENED,
    CLICKED
  }

  enum News {
    BACK_IN_STOCK,
    PRICE_DROPPED
  }

  enum Interest {
    VIEWED,
    CARTED
  }
}

package dev.tidings.delivery.webhook;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Refuses signed timestamps too far from now, in either direction: a captured request replayed later
 * is stale, and a timestamp from the future would stretch the window a replay memory must cover.
 */
public record Freshness(InstantSource clock, Duration maxAge) {

  public void require(Instant signedAt, String what) {
    Instant now = clock.instant();
    Duration age = Duration.between(signedAt, now).abs();
    if (age.compareTo(maxAge) > 0)
      throw WebhookRefused.forbidden(what + " " + signedAt + " is " + age.toSeconds()
          + " s away from now; at most " + maxAge.toSeconds() + " s are accepted");
  }

  /** A unix-seconds header or field as an instant; malformed when it is not one. */
  public static Instant unixSeconds(String text, String what) {
    try {
      return Instant.ofEpochSecond(Long.parseLong(text.trim()));
    } catch (NumberFormatException | DateTimeException e) {
      throw WebhookRefused.unauthenticated(what + " must be unix seconds but was '" + text + "'");
    }
  }
}

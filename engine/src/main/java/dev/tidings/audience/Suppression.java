package dev.tidings.audience;

import dev.tidings.Problems;
import java.time.Instant;

/**
 * An address never to mail again (compared case-insensitively), whether or not a subscriber has it. The
 * address is held as stored: the API and imports accept only one bare address ({@link
 * Subscriber#email(Problems, String)}) and {@link SuppressionService} stores it normalised, but a
 * suppression of a subscriber's older address that no longer passes that rule is kept as it is, never lost.
 */
public record Suppression(String email, SuppressionReason reason, Instant createdAt) {
  public Suppression {
    var problems = new Problems();
    problems.present("email", email);
    problems.present("reason", reason);
    problems.present("createdAt", createdAt);
    problems.throwIfAny();
  }
}

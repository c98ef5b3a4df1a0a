package dev.tidings.audience;

import dev.tidings.Problems;
import java.time.Instant;

/** An address never to mail again (compared case-insensitively), whether or not a subscriber has it. */
public record Suppression(String email, SuppressionReason reason, Instant createdAt) {
  public Suppression {
    var problems = new Problems();
    Subscriber.email(problems, email);
    problems.present("reason", reason);
    problems.present("createdAt", createdAt);
    problems.throwIfAny();
  }
}

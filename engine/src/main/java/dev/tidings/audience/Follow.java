package dev.tidings.audience;

import dev.tidings.Problems;
import java.time.Instant;

/** A subscriber following an entity since an instant. */
public record Follow(String subscriberId, FollowTarget target, Instant followedAt) {
  public Follow {
    var problems = new Problems();
    problems.id("subscriberId", subscriberId);
    problems.present("target", target);
    problems.present("followedAt", followedAt);
    problems.throwIfAny();
  }
}

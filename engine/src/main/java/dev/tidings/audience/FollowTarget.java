package dev.tidings.audience;

import dev.tidings.Problems;

/** A followed entity: its type and its id (1-200 characters). */
public record FollowTarget(TargetType type, String id) {
  public FollowTarget {
    var problems = new Problems();
    problems.present("targetType", type);
    problems.requiredText("targetId", id, 200);
    problems.throwIfAny();
  }
}

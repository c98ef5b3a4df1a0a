package dev.tidings.audience;

import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.TEXT;

import dev.tidings.imports.Problems;
import dev.tidings.imports.RowFields;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowSchema;
import java.time.Instant;
import java.time.InstantSource;

/** The {@code follows} format; a follow without {@code followedAt} is dated now. */
final class FollowRows implements RowMapper<Follow> {
  static final int SUBSCRIBER_ID = 0;
  static final int TARGET_TYPE = 1;
  static final int TARGET_ID = 2;
  static final int FOLLOWED_AT = 3;

  private static final RowSchema SCHEMA = RowSchema.of(
      required("subscriberId", TEXT),
      required("targetType", TEXT),
      required("targetId", TEXT),
      optional("followedAt", TEXT));

  private final InstantSource clock;

  FollowRows(InstantSource clock) {
    this.clock = clock;
  }

  @Override
  public RowSchema schema() {
    return SCHEMA;
  }

  @Override
  public Follow map(RowFields row) {
    var problems = new Problems();
    Instant followedAt = row.instant(FOLLOWED_AT, problems);
    String typeText = row.text(TARGET_TYPE);
    TargetType type = null;
    if (typeText != null) {
      type = TargetType.ofWire(typeText).orElse(null);
      if (type == null) {
        problems.add("targetType must be brand, artist, gallery, store or category, got " + Problems.quote(typeText));
      }
    }
    problems.id("subscriberId", row.text(SUBSCRIBER_ID));
    var target = problems.isEmpty() ? targetOrProblems(type, row.text(TARGET_ID), problems) : null;
    problems.throwIfAny();
    return new Follow(row.text(SUBSCRIBER_ID), target, followedAt == null ? clock.instant() : followedAt);
  }

  private static FollowTarget targetOrProblems(TargetType type, String id, Problems problems) {
    try {
      return new FollowTarget(type, id);
    } catch (dev.tidings.InvalidInputException e) {
      e.problems().forEach(problems::add);
      return null;
    }
  }
}

package dev.tidings.audience;

import static dev.tidings.Problems.toValidate;
import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.TEXT;

import dev.tidings.Problem;
import dev.tidings.Problems;
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
        problems.add(Problem.unknown(
            "targetType",
            "targetType must be brand, artist, gallery, store or category, got "
                + Problems.quote(typeText)));
      }
    }
    String subscriberId = row.text(SUBSCRIBER_ID);
    problems.id("subscriberId", subscriberId);
    problems.throwIfAny();
    // A bad target throws FollowTarget's own problems, the only ones left at this point.
    var target = new FollowTarget(toValidate(type), toValidate(row.text(TARGET_ID)));
    return new Follow(
        toValidate(subscriberId), target, followedAt == null ? clock.instant() : followedAt);
  }
}

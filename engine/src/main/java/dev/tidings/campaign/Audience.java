package dev.tidings.campaign;

import java.util.List;
import java.util.Objects;

/**
 * Whom a campaign reaches. Whatever the audience, only subscribers whose consent is {@code subscribed}
 * and whose address is not suppressed are planned, and the same is checked again when each email is
 * written.
 */
public sealed interface Audience {
  /** Every subscriber. */
  record All() implements Audience {}

  /** The subscribers that meet every condition (a conjunction; an empty list is everyone). */
  record Segment(List<Condition> conditions) implements Audience {
    public Segment {
      conditions = List.copyOf(Objects.requireNonNull(conditions, "conditions"));
    }
  }
}

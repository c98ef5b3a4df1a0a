package dev.tidings.journeys;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Who may enter, besides the trigger: one journey at a time per person always; again only {@code
 * reentryAfter} after their last entry; and only people in {@code segmentId} when it is given.
 */
public record EntryRules(Duration reentryAfter, @Nullable Long segmentId) {
  /** Anyone the trigger lets in, again as soon as they are out. */
  public static final EntryRules ANYONE = new EntryRules(Duration.ZERO, null);
}

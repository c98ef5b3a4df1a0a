package dev.tidings.journeys;

import dev.tidings.campaign.Audience;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Who may enter, besides the trigger: one journey at a time per person always; again only {@code
 * reentryAfter} after their last entry; and only people in {@code segment} (conditions as a
 * campaign's audience states them) when it is given.
 */
public record EntryRules(Duration reentryAfter, @Nullable Audience segment) {
  /** Anyone the trigger lets in, again as soon as they are out. */
  public static final EntryRules ANYONE = new EntryRules(Duration.ZERO, null);
}

package dev.tidings.campaign.send;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One recipient of a bulk run with when their email may go: {@code notBefore} empty sends it at once.
 * {@code cohort} records the send-time group the recipient is in, so people's opens can be split by it.
 */
public record PlannedSend(String subscriberId, Optional<Instant> notBefore, Cohort cohort) {
  /** The send-time group of a recipient. */
  public enum Cohort {
    /** A run planned at once: no send-time plan. */
    NONE,
    /** Sent at the hour planned for them. */
    TIMED,
    /** Held out of the plan and sent at once: the control. */
    HELD_OUT;

    /** The ledger's code ({@code send_recipient.cohort}); null for NONE. */
    @Nullable Integer code() {
      return switch (this) {
        case NONE -> null;
        case TIMED -> 0;
        case HELD_OUT -> 1;
      };
    }
  }

  public PlannedSend {
    Objects.requireNonNull(subscriberId, "subscriberId");
    Objects.requireNonNull(notBefore, "notBefore");
    Objects.requireNonNull(cohort, "cohort");
  }

  /** At once, with no send-time plan. */
  public static PlannedSend now(String subscriberId) {
    return new PlannedSend(subscriberId, Optional.empty(), Cohort.NONE);
  }
}

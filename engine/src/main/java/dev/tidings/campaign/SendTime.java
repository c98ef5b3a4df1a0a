package dev.tidings.campaign;

import java.time.Duration;
import java.util.Objects;

/**
 * When a campaign's emails go: all at once ({@link Mode#AT_ONCE}, the default), or each at the hour
 * its reader usually opens mail, somewhere in the {@code within} after the run starts ({@link
 * Mode#PER_SUBSCRIBER}), with a {@code holdout} share sent at once as the control.
 *
 * @param within the window, {@value #MIN_WITHIN_TEXT} to {@value #MAX_WITHIN_TEXT}: at least one hour
 *     to choose from, at most a week (every hour of the week once)
 * @param holdout the share of recipients sent at once to measure the effect against, 0..0.5
 */
public record SendTime(Mode mode, Duration within, double holdout) {
  public static final String MIN_WITHIN_TEXT = "PT1H";
  public static final String MAX_WITHIN_TEXT = "P7D";
  public static final Duration MIN_WITHIN = Duration.parse(MIN_WITHIN_TEXT);
  public static final Duration MAX_WITHIN = Duration.parse("PT168H");
  public static final Duration DEFAULT_WITHIN = Duration.ofHours(24);
  public static final double DEFAULT_HOLDOUT = 0.1;
  public static final double MAX_HOLDOUT = 0.5;
  public static final SendTime AT_ONCE =
      new SendTime(Mode.AT_ONCE, DEFAULT_WITHIN, DEFAULT_HOLDOUT);

  public enum Mode {
    AT_ONCE("at-once"),
    PER_SUBSCRIBER("per-subscriber");

    private final String wire;

    Mode(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }

  public SendTime {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(within, "within");
    if (within.compareTo(MIN_WITHIN) < 0 || within.compareTo(MAX_WITHIN) > 0)
      throw new IllegalArgumentException(
          "within must be within " + MIN_WITHIN_TEXT + ".." + MAX_WITHIN_TEXT);
    if (!(holdout >= 0 && holdout <= MAX_HOLDOUT))
      throw new IllegalArgumentException("holdout must be within 0.." + MAX_HOLDOUT);
  }

  public boolean perSubscriber() {
    return mode == Mode.PER_SUBSCRIBER;
  }
}

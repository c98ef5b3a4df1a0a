package dev.tidings.coordination.inprocess;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.RateLimiter;
import java.time.InstantSource;

/**
 * The single-node coordination of the embedded default: every port kept in this JVM's memory, with
 * time read from {@code clock} (tests pass a settable one). Expired entries are dropped as the ports
 * are used, so memory is bounded by what is live.
 */
public final class InProcessCoordination {
  private InProcessCoordination() {}

  public static ComputeOnce computeOnce(InstantSource clock) {
    return new InProcessComputeOnce(clock);
  }

  public static Countdown countdown(InstantSource clock) {
    return new InProcessCountdown(clock);
  }

  public static RateLimiter rateLimiter(InstantSource clock) {
    return new InProcessRateLimiter(clock);
  }
}

package dev.tidings.coordination;

import java.time.Duration;

/**
 * A token bucket per key, shared by every node using this limiter: {@code burst} permits at most,
 * refilled at {@code permitsPerSecond}. Used to hold a campaign's send rate and to protect endpoints.
 * Thread-safe.
 */
public interface RateLimiter {

  /** Takes {@code permits} from {@code key}'s bucket if they are there; never blocks. */
  Decision tryAcquire(String key, Limit limit, int permits);

  record Limit(double permitsPerSecond, int burst) {
    public Limit {
      if (!(permitsPerSecond > 0) || Double.isInfinite(permitsPerSecond)) {
        throw new IllegalArgumentException(
            "permitsPerSecond must be positive and finite but was " + permitsPerSecond);
      }
      if (burst < 1)
        throw new IllegalArgumentException("burst must be at least 1 but was " + burst);
    }
  }

  /** {@code retryAfter} is zero when granted, otherwise how long until the permits would be there. */
  record Decision(boolean granted, Duration retryAfter) {}
}

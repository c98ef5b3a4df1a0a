package dev.tidings.coordination.inprocess;

import dev.tidings.coordination.RateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link RateLimiter} for one JVM: a token bucket per key, refilled lazily from the injected clock. A
 * bucket that has refilled completely is indistinguishable from a new one, so the sweep drops it.
 */
final class InProcessRateLimiter implements RateLimiter {
  private final InstantSource clock;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
  private final Sweeper sweeper;

  InProcessRateLimiter(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sweeper = new Sweeper(clock, Duration.ofSeconds(1));
  }

  private record Bucket(double tokens, Instant at, Instant fullAt) {}

  @Override
  public Decision tryAcquire(String key, Limit limit, int permits) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(limit, "limit");
    checkPermits(permits, limit);
    sweeper.maybeSweep(this::sweep);
    Instant now = clock.instant();
    Decision[] decision = new Decision[1];
    buckets.compute(key, (k, bucket) -> {
      double tokens = bucket == null ? limit.burst() : refilled(bucket, limit, now);
      Instant at = bucket == null || now.isAfter(bucket.at()) ? now : bucket.at();
      if (tokens >= permits) {
        tokens -= permits;
        decision[0] = new Decision(true, Duration.ZERO);
      } else {
        decision[0] = new Decision(false, micros((permits - tokens) / limit.permitsPerSecond()));
      }
      Instant fullAt = at.plus(micros((limit.burst() - tokens) / limit.permitsPerSecond()));
      return new Bucket(tokens, at, fullAt);
    });
    return decision[0];
  }

  private static double refilled(Bucket bucket, Limit limit, Instant now) {
    if (!now.isAfter(bucket.at())) return Math.min(bucket.tokens(), limit.burst());
    double seconds = Duration.between(bucket.at(), now).toNanos() / 1e9;
    return Math.min(limit.burst(), bucket.tokens() + seconds * limit.permitsPerSecond());
  }

  /** Rounded up to whole microseconds, so that waiting retryAfter is always enough. */
  private static Duration micros(double seconds) {
    return Duration.ofNanos((long) Math.ceil(seconds * 1e6) * 1000);
  }

  static void checkPermits(int permits, Limit limit) {
    if (permits < 1)
      throw new IllegalArgumentException("permits must be at least 1 but was " + permits);
    if (permits > limit.burst()) {
      throw new IllegalArgumentException("permits (" + permits + ") exceed the burst ("
          + limit.burst() + ") and could never be granted");
    }
  }

  private void sweep(Instant now) {
    buckets.values().removeIf(bucket -> !now.isBefore(bucket.fullAt()));
  }
}

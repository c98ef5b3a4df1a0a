package dev.tidings.campaign.send;

import dev.tidings.coordination.RateLimiter;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Holds a run to its rate across every worker through the shared {@link RateLimiter}: a worker takes
 * the permits of a whole chunk at once (one round trip to Redis per chunk, not per email) and sleeps
 * for as long as the limiter says they will take to refill, never spinning.
 */
final class Pacer {
  /** A tenth of a second's worth of permits may go at once, so a run starts without a lag. */
  private static final double BURST_SECONDS = 0.1;

  private static final Duration LONGEST_NAP = Duration.ofMillis(500);

  private final RateLimiter limiter;

  Pacer(RateLimiter limiter) {
    this.limiter = limiter;
  }

  /** The most permits one acquisition may ask for at the job's rate. */
  static int burst(SendJob job) {
    double burst = Math.ceil(job.ratePerSecond() * BURST_SECONDS);
    return (int) Math.max(1, Math.min(100_000, burst));
  }

  /**
   * Waits for {@code permits} (at most {@link #burst}) of the job's rate. While waiting, {@code
   * stillWanted} is asked after each nap; false abandons the wait (a lost lease, a paused run).
   * Returns whether the permits were taken.
   */
  boolean acquire(SendJob job, int permits, BooleanSupplier stillWanted)
      throws InterruptedException {
    var limit = new RateLimiter.Limit(job.ratePerSecond(), burst(job));
    String key = "send:" + job.campaignId() + ":" + job.runId();
    int wanted = Math.min(permits, limit.burst());
    while (true) {
      var decision = limiter.tryAcquire(key, limit, wanted);
      if (decision.granted()) return true;
      Duration nap =
          decision.retryAfter().compareTo(LONGEST_NAP) > 0 ? LONGEST_NAP : decision.retryAfter();
      Thread.sleep(Math.max(1, nap.toMillis()));
      if (!stillWanted.getAsBoolean()) return false;
    }
  }
}

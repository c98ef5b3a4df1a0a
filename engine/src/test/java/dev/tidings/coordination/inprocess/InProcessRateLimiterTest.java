package dev.tidings.coordination.inprocess;

import dev.tidings.coordination.MutableClock;
import dev.tidings.coordination.RateLimiter;
import dev.tidings.coordination.RateLimiterContract;
import java.time.Duration;

class InProcessRateLimiterTest extends RateLimiterContract {
  private final MutableClock clock = new MutableClock();

  @Override
  protected RateLimiter create() {
    return InProcessCoordination.rateLimiter(clock);
  }

  @Override
  protected void advance(Duration duration) {
    clock.advance(duration);
  }
}

package dev.tidings.coordination.inprocess;

import dev.tidings.coordination.Countdown;
import dev.tidings.coordination.CountdownContract;
import dev.tidings.coordination.MutableClock;
import java.time.Duration;

class InProcessCountdownTest extends CountdownContract {
  private final MutableClock clock = new MutableClock();

  @Override
  protected Countdown create() {
    return InProcessCoordination.countdown(clock);
  }

  @Override
  protected void advance(Duration duration) {
    clock.advance(duration);
  }

  @Override
  protected Countdown loseEverything() {
    return InProcessCoordination.countdown(clock); // a restarted process: nothing but the clock
  }
}

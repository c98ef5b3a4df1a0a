package dev.tidings.coordination.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnceContract;
import dev.tidings.coordination.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class InProcessComputeOnceTest extends ComputeOnceContract {
  private final MutableClock clock = new MutableClock();
  private InProcessComputeOnce inProcess;

  @Override
  protected ComputeOnce create() {
    inProcess = (InProcessComputeOnce) InProcessCoordination.computeOnce(clock);
    return inProcess;
  }

  @Override
  protected void advance(Duration duration) {
    clock.advance(duration);
  }

  @Test
  void expired_values_are_dropped_so_memory_stays_bounded() {
    for (int i = 0; i < 1000; i++) once.computeOnce(uniqueKey(), TIMINGS, () -> "value");
    assertThat(inProcess.size()).isEqualTo(1000);

    advance(TIMINGS.valueTtl().plusSeconds(1));
    once.computeOnce(uniqueKey(), TIMINGS, () -> "the one live value");

    assertThat(inProcess.size()).isEqualTo(1);
  }
}

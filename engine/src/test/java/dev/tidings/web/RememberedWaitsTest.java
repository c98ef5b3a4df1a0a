package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RememberedWaitsTest {
  private final MutableClock clock = new MutableClock();
  private final Instant start = clock.instant();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RememberedWaits waits = new RememberedWaits(3, clock, registry);

  private double forgotten() {
    return registry.get(RememberedWaits.FORGOTTEN).counter().count();
  }

  @Test
  void when_full_the_oldest_wait_is_forgotten_and_counted_and_the_newest_is_remembered() {
    for (String bucket : new String[] {"a", "b", "c"})
      waits.remember(bucket, start.plus(Duration.ofMinutes(5)));
    waits.remember("d", start.plus(Duration.ofMinutes(5)));

    assertThat(waits.waiting("d")).hasValue(Duration.ofMinutes(5));
    assertThat(waits.waiting("a")).isEmpty();
    assertThat(waits.waiting("b")).isPresent();
    assertThat(waits.size()).isEqualTo(3);
    assertThat(forgotten()).isEqualTo(1.0);
  }

  @Test
  void waits_that_are_over_make_room_before_any_still_running_is_forgotten() {
    waits.remember("short", start.plus(Duration.ofSeconds(10)));
    waits.remember("b", start.plus(Duration.ofMinutes(5)));
    waits.remember("c", start.plus(Duration.ofMinutes(5)));
    clock.advance(Duration.ofSeconds(11));
    waits.remember("d", start.plus(Duration.ofMinutes(5)));

    assertThat(waits.waiting("b")).isPresent();
    assertThat(waits.waiting("c")).isPresent();
    assertThat(waits.waiting("d")).isPresent();
    assertThat(forgotten()).isZero();
  }

  @Test
  void a_bucket_remembered_again_becomes_the_newest_and_takes_its_new_end() {
    waits.remember("a", start.plus(Duration.ofMinutes(1)));
    waits.remember("b", start.plus(Duration.ofMinutes(1)));
    waits.remember("c", start.plus(Duration.ofMinutes(1)));
    waits.remember("a", start.plus(Duration.ofMinutes(2)));
    waits.remember("d", start.plus(Duration.ofMinutes(1)));

    assertThat(waits.waiting("a")).hasValue(Duration.ofMinutes(2));
    assertThat(waits.waiting("b")).isEmpty();
  }

  @Test
  void a_wait_ends_when_its_time_has_come() {
    waits.remember("a", start.plus(Duration.ofSeconds(30)));
    clock.advance(Duration.ofSeconds(30));
    assertThat(waits.waiting("a")).isEmpty();
    assertThat(waits.size()).isZero();
  }
}

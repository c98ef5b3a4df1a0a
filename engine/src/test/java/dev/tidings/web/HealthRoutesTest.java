package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** {@code /health} answers by its probe deadline even when a dependency's probe never returns. */
class HealthRoutesTest {
  private final CountDownLatch released = new CountDownLatch(1);

  /** A probe stuck in a driver that ignores interrupts, as a hung socket read can be. */
  private Optional<String> hungProbe() {
    boolean interrupted = false;
    while (true) {
      try {
        released.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
    return Optional.empty();
  }

  @Test
  void a_hung_probe_is_reported_down_without_waiting_for_it() {
    var health = new HealthRoutes(
        List.of(
            new DependencyCheck("stuck", "db.example:5432", this::hungProbe),
            new DependencyCheck("fine", "cache.example:6379", Optional::empty)),
        Duration.ofMillis(200),
        new OperatorAccess(new Secret("k"), Optional.empty(), Optional.empty()));
    // Let the probe go after 3 s,
    // so a health check that waits for it returns late instead of never.
    Thread.ofVirtual().start(() -> {
      try {
        Thread.sleep(3000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      released.countDown();
    });
    try {
      long start = System.nanoTime();
      var answer = health.check();
      long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();

      assertThat(answer.status()).isEqualTo("down");
      assertThat(answer.dependencies().get("stuck").problem()).contains("no answer within 200 ms");
      assertThat(answer.dependencies().get("fine").status()).isEqualTo("up");
      assertThat(millis)
          .as("answered by the 200 ms deadline, not when the probe let go at 3 s")
          .isLessThan(2500);
    } finally {
      released.countDown();
    }
  }

  @Test
  void a_failing_probe_reports_its_message() {
    var health = new HealthRoutes(
        List.of(new DependencyCheck("broken", "db.example:5432", () -> {
          throw new IllegalStateException("connection refused");
        })),
        Duration.ofSeconds(1),
        new OperatorAccess(new Secret("k"), Optional.empty(), Optional.empty()));
    var answer = health.check();
    assertThat(answer.status()).isEqualTo("down");
    assertThat(answer.dependencies().get("broken").problem()).contains("connection refused");
  }
}

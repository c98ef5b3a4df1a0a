package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.web.DependencyCheck;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Dependency gauges come from background probes: a hung server reads as down, and no read waits. */
class NodeGaugesTest {
  @Test
  void a_server_that_answers_is_up_one_with_a_problem_or_no_answer_is_down() throws Exception {
    var registry = new SimpleMeterRegistry();
    var never = new CountDownLatch(1);
    var checks = List.of(
        new DependencyCheck("postgresql", "db", Optional::empty),
        new DependencyCheck("redis", "r", () -> Optional.of("connection refused")),
        new DependencyCheck("rabbitmq", "q", () -> {
          try {
            never.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return Optional.empty();
        }));
    try (var jobs = new BackgroundJobs(registry, InstantSource.system());
        var gauges = NodeGauges.register(registry, Role.WORKER, checks, jobs)) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (up(registry, "rabbitmq") != 0 && System.nanoTime() < deadline) Thread.sleep(50);

      long start = System.nanoTime();
      assertThat(up(registry, "postgresql")).isEqualTo(1);
      assertThat(up(registry, "redis")).isZero();
      assertThat(up(registry, "rabbitmq"))
          .as("no answer within the probe's time")
          .isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("reading the gauges waits on no server")
          .isLessThan(Duration.ofMillis(200));
      assertThat(registry.get(NodeGauges.INFO).tag("role", "worker").gauge().value())
          .isEqualTo(1);
    } finally {
      never.countDown();
    }
  }

  private static double up(SimpleMeterRegistry registry, String dependency) {
    return registry
        .get(NodeGauges.DEPENDENCY_UP)
        .tag("dependency", dependency)
        .gauge()
        .value();
  }
}

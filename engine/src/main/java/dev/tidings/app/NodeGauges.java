package dev.tidings.app;

import dev.tidings.web.DependencyCheck;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the node is, for Prometheus: {@code tidings_node{role, version}} (always 1: a dashboard
 * lists the nodes and the versions side by side during an upgrade) and {@code
 * tidings_dependency_up{dependency}}, 1 while the node can reach the server (PostgreSQL, Redis,
 * RabbitMQ, mail) as its readiness probe asks, 0 when it cannot or does not answer within a few
 * seconds: a scrape never hangs on a server that is down.
 */
final class NodeGauges {
  static final String INFO = "tidings_node";
  static final String DEPENDENCY_UP = "tidings_dependency_up";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private NodeGauges() {}

  static void register(MeterRegistry registry, Role role, List<DependencyCheck> checks) {
    Gauge.builder(INFO, () -> 1)
        .description("This node: its role and version")
        .tag("role", role.name().toLowerCase(Locale.ROOT))
        .tag("version", version())
        .register(registry);
    for (DependencyCheck check : checks)
      Gauge.builder(DEPENDENCY_UP, check, NodeGauges::up)
          .description("1 while this node can reach the server its readiness depends on, else 0")
          .tag("dependency", check.name())
          .strongReference(true)
          .register(registry);
  }

  static String version() {
    return Objects.requireNonNullElse(
        NodeGauges.class.getPackage().getImplementationVersion(), "development");
  }

  private static double up(DependencyCheck check) {
    var answer = CompletableFuture.supplyAsync(
        () -> check.problem().get(), runnable -> Thread.ofVirtual().start(runnable));
    try {
      Optional<String> problem = answer.get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return problem.isEmpty() ? 1 : 0;
    } catch (TimeoutException | ExecutionException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }
}

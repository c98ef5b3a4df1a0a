package dev.tidings.app;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.jobs.Election;
import dev.tidings.web.DependencyCheck;
import dev.tidings.web.DependencyProbes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * What the node is, for Prometheus: {@code tidings_node{role, version}} (always 1: a dashboard lists
 * the nodes and the versions side by side during an upgrade) and {@code
 * tidings_dependency_up{dependency}}, 1 while the node can reach the server (PostgreSQL, Redis,
 * RabbitMQ, mail) as its readiness probe asks, 0 when it cannot or does not answer within
 * {@link #PROBE_TIMEOUT}. The servers are probed together every {@link #EVERY} in the background and
 * the gauges read the last answers: a scrape never waits on a server that is down (four hung probes
 * would outlast a scraper's timeout).
 */
final class NodeGauges implements AutoCloseable {
  static final String INFO = "tidings_node";
  static final String DEPENDENCY_UP = "tidings_dependency_up";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration EVERY = Duration.ofSeconds(5);

  private final List<DependencyCheck> checks;
  private final List<AtomicInteger> up;
  private BackgroundJobs.@Nullable Running probing;

  private NodeGauges(List<DependencyCheck> checks) {
    this.checks = List.copyOf(checks);
    this.up = checks.stream().map(check -> new AtomicInteger(1)).toList();
  }

  /** Registers the gauges and starts probing; closing stops the probes. */
  static NodeGauges register(
      MeterRegistry registry, Role role, List<DependencyCheck> checks, BackgroundJobs jobs) {
    Gauge.builder(INFO, () -> 1)
        .description("This node: its role and version")
        .tag("role", role.name().toLowerCase(Locale.ROOT))
        .tag("version", version())
        .register(registry);
    var gauges = new NodeGauges(checks);
    for (int i = 0; i < gauges.checks.size(); i++)
      Gauge.builder(DEPENDENCY_UP, gauges.up.get(i), AtomicInteger::get)
          .description("1 while this node can reach the server its readiness depends on, else 0")
          .tag("dependency", gauges.checks.get(i).name())
          .strongReference(true)
          .register(registry);
    gauges.probing = jobs.start(BackgroundJob.of(
        "dependency-probes", Duration.ZERO, EVERY, Election.everyNode(), gauges::probe));
    return gauges;
  }

  static String version() {
    return Objects.requireNonNullElse(
        NodeGauges.class.getPackage().getImplementationVersion(), "development");
  }

  /** Every server at once, each within the timeout. */
  private void probe() {
    var answers = DependencyProbes.probeAll(checks, PROBE_TIMEOUT);
    for (int i = 0; i < answers.size(); i++)
      up.get(i).set(answers.get(i).problem().isEmpty() ? 1 : 0);
  }

  @Override
  public void close() {
    if (probing != null) probing.close();
  }
}

package dev.tidings.web;

import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Health for load balancers and orchestrators. {@code GET /health/live}: 200 while the process serves
 * HTTP, probing nothing, so an orchestrator restarts a node only when it is truly stuck, never because
 * a shared server is down (a restart would not bring it back). {@code GET /health/ready} (and its older
 * name {@code GET /health}): 200 when every dependency answers, 503 otherwise, so traffic goes only to
 * nodes that can serve it. Anyone gets the status alone
 * (a load balancer needs no more); each dependency's state, latency and problem go only to a request
 * with the API key or the metrics token, and never where a dependency is: hosts, users and URLs tell
 * an attacker what to aim at next. Probes run in parallel with a deadline, so one hung dependency
 * cannot hang the health check.
 */
final class HealthRoutes implements RouteGroup {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
  private final List<DependencyCheck> checks;
  private final long probeTimeoutMs;
  private final OperatorAccess access;

  HealthRoutes(List<DependencyCheck> checks, OperatorAccess access) {
    this(checks, PROBE_TIMEOUT, access);
  }

  HealthRoutes(List<DependencyCheck> checks, Duration probeTimeout, OperatorAccess access) {
    this.checks = List.copyOf(checks);
    this.probeTimeoutMs = probeTimeout.toMillis();
    this.access = access;
  }

  record DependencyState(String status, long millis, Optional<String> problem) {}

  record Health(String status, Map<String, DependencyState> dependencies) {}

  record Status(String status) {}

  /** Every dependency probed at once, within the probe timeout ({@link DependencyProbes}). */
  Health check() {
    var results = new LinkedHashMap<String, DependencyState>();
    for (var answer : DependencyProbes.probeAll(checks, Duration.ofMillis(probeTimeoutMs)))
      results.put(
          answer.check().name(),
          new DependencyState(
              answer.problem().isEmpty() ? "up" : "down", answer.millis(), answer.problem()));
    boolean up = results.values().stream().allMatch(state -> state.status().equals("up"));
    return new Health(up ? "up" : "down", results);
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(
        "/health/live", (request, response) -> JsonBodies.write(response, 200, new Status("up")));
    routing.get("/health/ready", this::ready);
    routing.get("/health", this::ready);
  }

  private void ready(ServerRequest request, ServerResponse response) {
    var verdict = access.check(request, response);
    if (verdict == OperatorAccess.Verdict.ANSWERED) return;
    Health health = check();
    int status = health.status().equals("up") ? 200 : 503;
    if (verdict == OperatorAccess.Verdict.OPERATOR) {
      JsonBodies.write(response, status, health);
    } else {
      JsonBodies.write(response, status, new Status(health.status()));
    }
  }
}

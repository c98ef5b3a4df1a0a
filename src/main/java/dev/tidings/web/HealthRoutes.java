package dev.tidings.web;

import io.helidon.webserver.http.HttpRouting;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code GET /health}: 200 when every dependency answers, 503 otherwise, with each dependency's state.
 * Probes run in parallel with a deadline, so one hung dependency cannot hang the health check.
 */
final class HealthRoutes implements RouteGroup {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
  private final List<DependencyCheck> checks;
  private final long probeTimeoutMs;

  HealthRoutes(List<DependencyCheck> checks) {
    this(checks, PROBE_TIMEOUT);
  }

  HealthRoutes(List<DependencyCheck> checks, Duration probeTimeout) {
    this.checks = List.copyOf(checks);
    this.probeTimeoutMs = probeTimeout.toMillis();
  }

  record DependencyState(String status, String target, long millis, Optional<String> problem) {}

  record Health(String status, Map<String, DependencyState> dependencies) {}

  /**
   * Each probe on a virtual thread of its own; a probe still running at the deadline is interrupted
   * and left behind, never waited for (a probe blocked in a driver may ignore the interrupt).
   */
  Health check() {
    var results = new LinkedHashMap<String, DependencyState>();
    var probes = new LinkedHashMap<DependencyCheck, Probe>();
    long start = System.nanoTime();
    for (var check : checks) probes.put(check, Probe.start(check));
    probes.forEach((check, probe) -> {
      Optional<String> problem;
      try {
        long left = probeTimeoutMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        problem = probe.answer().get(Math.max(1, left), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        probe.thread().interrupt();
        problem = Optional.of("no answer within " + probeTimeoutMs + " ms");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problem = Optional.of("interrupted");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        problem = Optional.of(String.valueOf(cause.getMessage()));
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      results.put(
          check.name(),
          new DependencyState(problem.isEmpty() ? "up" : "down", check.target(), millis, problem));
    });
    boolean up = results.values().stream().allMatch(state -> state.status().equals("up"));
    return new Health(up ? "up" : "down", results);
  }

  /** One dependency's probe, running on a virtual thread of its own. */
  private record Probe(Thread thread, CompletableFuture<Optional<String>> answer) {
    static Probe start(DependencyCheck check) {
      var answer = new CompletableFuture<Optional<String>>();
      Thread thread = Thread.ofVirtual().name("health-" + check.name()).start(() -> {
        try {
          answer.complete(check.problem().get());
        } catch (RuntimeException e) {
          answer.completeExceptionally(e);
        }
      });
      return new Probe(thread, answer);
    }
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/health", (request, response) -> {
      Health health = check();
      JsonBodies.write(response, health.status().equals("up") ? 200 : 503, health);
    });
  }
}

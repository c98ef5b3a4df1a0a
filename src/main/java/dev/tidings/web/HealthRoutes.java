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
    var futures = new LinkedHashMap<DependencyCheck, CompletableFuture<Optional<String>>>();
    long start = System.nanoTime();
    for (var check : checks) {
      var future = new CompletableFuture<Optional<String>>();
      Thread probe = Thread.ofVirtual().name("health-" + check.name()).start(() -> {
        try {
          future.complete(check.problem().get());
        } catch (RuntimeException e) {
          future.completeExceptionally(e);
        }
      });
      future.whenComplete((problem, failure) -> probe.interrupt());
      futures.put(check, future);
    }
    futures.forEach((check, future) -> {
      Optional<String> problem;
      try {
        long left = probeTimeoutMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        problem = future.get(Math.max(1, left), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        future.cancel(true);
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

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/health", (request, response) -> {
      Health health = check();
      JsonBodies.write(response, health.status().equals("up") ? 200 : 503, health);
    });
  }
}

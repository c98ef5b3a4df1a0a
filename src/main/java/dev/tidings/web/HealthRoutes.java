package dev.tidings.web;

import io.helidon.webserver.http.HttpRouting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code GET /health}: 200 when every dependency answers, 503 otherwise, with each dependency's state.
 * Probes run in parallel with a deadline, so one hung dependency cannot hang the health check.
 */
final class HealthRoutes implements RouteGroup {
  private static final long PROBE_TIMEOUT_MS = 3000;
  private final List<DependencyCheck> checks;

  HealthRoutes(List<DependencyCheck> checks) {
    this.checks = List.copyOf(checks);
  }

  record DependencyState(String status, String target, long millis, Optional<String> problem) {}

  record Health(String status, Map<String, DependencyState> dependencies) {}

  Health check() {
    var results = new LinkedHashMap<String, DependencyState>();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      var futures = new LinkedHashMap<DependencyCheck, Future<Optional<String>>>();
      long start = System.nanoTime();
      for (var check : checks)
        futures.put(check, executor.submit(() -> check.problem().get()));
      futures.forEach((check, future) -> {
        Optional<String> problem;
        try {
          long left = PROBE_TIMEOUT_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          problem = future.get(Math.max(1, left), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          future.cancel(true);
          problem = Optional.of("no answer within " + PROBE_TIMEOUT_MS + " ms");
        } catch (Exception e) {
          problem = Optional.of(String.valueOf(e.getMessage()));
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        results.put(
            check.name(),
            new DependencyState(
                problem.isEmpty() ? "up" : "down", check.target(), millis, problem));
      });
      executor.shutdownNow();
    }
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

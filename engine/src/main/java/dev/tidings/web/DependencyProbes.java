package dev.tidings.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Probes every dependency at once, each on a virtual thread of its own, all within one timeout: a
 * probe still running at the deadline is interrupted and left behind, never waited for (a probe
 * blocked in a driver may ignore the interrupt), so one hung server shows as down instead of hanging
 * its caller. Readiness, the System page and the dependency gauges all ask through this.
 */
public final class DependencyProbes {
  private DependencyProbes() {}

  /** A dependency's answer: empty when it works, else what is wrong (no credentials). */
  public record Answer(DependencyCheck check, Optional<String> problem, long millis) {}

  public static List<Answer> probeAll(List<DependencyCheck> checks, Duration timeout) {
    long start = System.nanoTime();
    var threads = new ArrayList<Thread>(checks.size());
    var answers = new ArrayList<CompletableFuture<Optional<String>>>(checks.size());
    for (var check : checks) {
      var answer = new CompletableFuture<Optional<String>>();
      threads.add(Thread.ofVirtual().name("probe-" + check.name()).start(() -> {
        try {
          answer.complete(check.problem().get());
        } catch (RuntimeException e) {
          answer.completeExceptionally(e);
        }
      }));
      answers.add(answer);
    }
    var results = new ArrayList<Answer>(checks.size());
    for (int i = 0; i < checks.size(); i++) {
      Optional<String> problem;
      try {
        long left = timeout.toNanos() - (System.nanoTime() - start);
        problem = answers.get(i).get(Math.max(1, left), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        threads.get(i).interrupt();
        problem = Optional.of("no answer within " + timeout.toMillis() + " ms");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problem = Optional.of("interrupted");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        problem = Optional.of(withoutCredentials(String.valueOf(cause.getMessage())));
      }
      results.add(new Answer(
          checks.get(i), problem, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
    }
    return results;
  }

  /** A driver's message may name a URL with its user and password: keep neither. */
  public static String withoutCredentials(String message) {
    return message
        .replaceAll("//[^/@\\s]*@", "//")
        .replaceAll("(?i)(password=)[^&\\s]*", "$1<masked>");
  }
}

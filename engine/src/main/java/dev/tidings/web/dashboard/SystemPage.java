package dev.tidings.web.dashboard;

import dev.tidings.delivery.FunnelStep;
import dev.tidings.web.DependencyCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The node: its dependencies and their state, its work queues' depths, and its throughput. */
final class SystemPage {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private SystemPage() {}

  record Dependency(String name, String target, Optional<String> problem, long millis) {}

  record Queue(String name, Optional<Long> depth) {}

  /**
   * Probes every dependency at once on virtual threads, each given {@link #PROBE_TIMEOUT}: one hung
   * server shows as down instead of hanging the page.
   */
  static List<Dependency> probe(List<DependencyCheck> checks) {
    List<CompletableFuture<Optional<String>>> answers = new ArrayList<>();
    long start = System.nanoTime();
    for (var check : checks) {
      var answer = new CompletableFuture<Optional<String>>();
      Thread.ofVirtual().name("dashboard-probe-" + check.name()).start(() -> {
        try {
          answer.complete(check.problem().get());
        } catch (RuntimeException e) {
          answer.completeExceptionally(e);
        }
      });
      answers.add(answer);
    }
    List<Dependency> states = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      var check = checks.get(i);
      Optional<String> problem;
      try {
        long left =
            PROBE_TIMEOUT.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        problem = answers.get(i).get(Math.max(1, left), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        problem = Optional.of("no answer within " + PROBE_TIMEOUT.toMillis() + " ms");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problem = Optional.of("interrupted");
      } catch (ExecutionException e) {
        problem =
            Optional.of(String.valueOf(e.getCause() == null ? e : e.getCause().getMessage()));
      }
      states.add(new Dependency(
          check.name(),
          check.target(),
          problem,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
    }
    return states;
  }

  /** The page as the {@code system} template shows it. */
  record View(List<DependencyRow> dependencies, List<QueueRow> queues, List<StepRow> throughput) {}

  record DependencyRow(String name, String target, boolean up, String problem, long millis) {}

  record QueueRow(String name, String waiting) {}

  record StepRow(String step, String minute, String hour) {}

  private static final List<FunnelStep> STEPS = List.of(
      FunnelStep.SENT,
      FunnelStep.DELIVERED,
      FunnelStep.OPENED,
      FunnelStep.HUMAN_OPENED,
      FunnelStep.CLICKED,
      FunnelStep.BOUNCED,
      FunnelStep.COMPLAINED);

  static String render(
      List<Dependency> dependencies,
      List<Queue> queues,
      Map<FunnelStep, Long> lastMinute,
      Map<FunnelStep, Long> lastHour) {
    var view = new View(
        dependencies.stream()
            .map(d -> new DependencyRow(
                d.name(), d.target(), d.problem().isEmpty(), d.problem().orElse(""), d.millis()))
            .toList(),
        queues.stream()
            .map(q -> new QueueRow(q.name(), q.depth().map(Html::count).orElse("unavailable")))
            .toList(),
        STEPS.stream()
            .map(step -> new StepRow(
                step.wire(),
                Html.count(lastMinute.getOrDefault(step, 0L)),
                Html.count(lastHour.getOrDefault(step, 0L))))
            .toList());
    return Html.page("System", Html.Section.SYSTEM, true, Templates.render("system", view));
  }
}

package dev.tidings.web.dashboard;

import dev.tidings.cluster.NodeRegistry;
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

/**
 * What an operator looks for first: this node's dependencies and their state, the work queues (waiting,
 * the oldest message's age, dead letters), how far counting is behind, every node of the installation
 * with its role and version, and the throughput.
 */
final class SystemPage {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private SystemPage() {}

  record Dependency(String name, String target, Optional<String> problem, long millis) {}

  /** A work queue as measured now: each figure empty when it could not be read. */
  record Queue(
      String name,
      Optional<Long> depth,
      Optional<Duration> oldest,
      Optional<Integer> deadLetters) {}

  /** Dead letters counted on the page up to this; more show as "100+". */
  static final int DEAD_LETTERS_COUNTED = 100;

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
  record View(
      List<DependencyRow> dependencies,
      List<QueueRow> queues,
      List<StepRow> throughput,
      String countingWaiting,
      String countingLag,
      boolean countingBehind,
      List<NodeRow> nodes) {}

  record DependencyRow(String name, String target, boolean up, String problem, long millis) {}

  record QueueRow(
      String name, String path, String waiting, String oldest, String deadLetters, boolean dead) {}

  record NodeRow(
      String host,
      String role,
      String version,
      String started,
      String seen,
      boolean answering,
      boolean thisNode) {}

  /** Counting is shown as behind past this: the recommendations and funnels lag that much. */
  private static final Duration BEHIND = Duration.ofMinutes(1);

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
      Optional<DashboardSources.Counting> counting,
      List<NodeRegistry.Node> nodes,
      Map<FunnelStep, Long> lastMinute,
      Map<FunnelStep, Long> lastHour) {
    var view = new View(
        dependencies.stream()
            .map(d -> new DependencyRow(
                d.name(), d.target(), d.problem().isEmpty(), d.problem().orElse(""), d.millis()))
            .toList(),
        queues.stream()
            .map(q -> new QueueRow(
                q.name(),
                "/system/dead-letters/"
                    + java.net.URLEncoder.encode(q.name(), java.nio.charset.StandardCharsets.UTF_8),
                q.depth().map(Html::count).orElse("unavailable"),
                q.oldest().map(Html::duration).orElse("unknown here"),
                q.deadLetters()
                    .map(n -> n > DEAD_LETTERS_COUNTED ? DEAD_LETTERS_COUNTED + "+" : Html.count(n))
                    .orElse("unavailable"),
                q.deadLetters().orElse(0) > 0))
            .toList(),
        STEPS.stream()
            .map(step -> new StepRow(
                step.wire(),
                Html.count(lastMinute.getOrDefault(step, 0L)),
                Html.count(lastHour.getOrDefault(step, 0L))))
            .toList(),
        counting.map(c -> Html.count(c.waiting())).orElse("unavailable"),
        counting.map(c -> Html.duration(c.lag())).orElse("unknown"),
        counting.map(c -> c.lag().compareTo(BEHIND) > 0).orElse(false),
        nodes.stream()
            .map(n -> new NodeRow(
                n.host(),
                n.role(),
                n.version(),
                Html.time(n.startedAt()),
                Html.time(n.seenAt()),
                n.answering(),
                n.thisNode()))
            .toList());
    return Html.page("System", Html.Section.SYSTEM, true, Templates.render("system", view));
  }
}

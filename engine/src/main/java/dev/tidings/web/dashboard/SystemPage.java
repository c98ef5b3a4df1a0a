package dev.tidings.web.dashboard;

import dev.tidings.cluster.NodeRegistry;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.web.DependencyCheck;
import dev.tidings.web.DependencyProbes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

  /** Every dependency probed at once, each given {@link #PROBE_TIMEOUT}. */
  static List<Dependency> probe(List<DependencyCheck> checks) {
    return DependencyProbes.probeAll(checks, PROBE_TIMEOUT).stream()
        .map(answer -> new Dependency(
            answer.check().name(),
            answer.check().target()
                + answer.check().detail().get().map(detail -> " · " + detail).orElse(""),
            answer.problem(),
            answer.millis()))
        .toList();
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
      Visitor visitor,
      List<Dependency> dependencies,
      List<Queue> queues,
      Optional<DashboardSources.Counting> counting,
      List<NodeRegistry.Node> nodes,
      Map<FunnelStep, Long> lastMinute,
      Map<FunnelStep, Long> lastHour) {
    return render(
        visitor, dependencies, queues, counting, nodes, lastMinute, lastHour, "", Optional.empty());
  }

  /**
   * With {@code webhooks}, the outgoing webhooks' section (already HTML, from {@link WebhookPages}),
   * and a notice of what a form on the page just did.
   */
  static String render(
      Visitor visitor,
      List<Dependency> dependencies,
      List<Queue> queues,
      Optional<DashboardSources.Counting> counting,
      List<NodeRegistry.Node> nodes,
      Map<FunnelStep, Long> lastMinute,
      Map<FunnelStep, Long> lastHour,
      String webhooks,
      Optional<String> notice) {
    var view = new View(
        dependencies.stream()
            .map(d -> new DependencyRow(
                d.name(), d.target(), d.problem().isEmpty(), d.problem().orElse(""), d.millis()))
            .toList(),
        queues.stream()
            .map(q -> new QueueRow(
                q.name(),
                "/system/dead-letters/" + URLEncoder.encode(q.name(), StandardCharsets.UTF_8),
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
    String body = Templates.render("system", view);
    if (!webhooks.isEmpty()) {
      // the section joins the page's grid, before its closing tag
      int end = body.lastIndexOf("</div>");
      body = body.substring(0, end) + webhooks + body.substring(end);
    }
    String said = notice
        .map(text -> "<p role=\"status\" class=\"notice\">" + Html.escape(text) + "</p>")
        .orElse("");
    return Html.page("System", Html.Section.SYSTEM, visitor, said + body);
  }
}

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

  static String render(
      List<Dependency> dependencies,
      List<Queue> queues,
      Map<FunnelStep, Long> lastMinute,
      Map<FunnelStep, Long> lastHour) {
    var body = new StringBuilder("<h1>System</h1><div class=\"grid\">");
    body.append(
        "<section aria-labelledby=\"deps\" class=\"card wide\"><h2 id=\"deps\">Dependencies</h2>"
            + "<table><thead><tr><th scope=\"col\">Dependency</th><th scope=\"col\">Where</th>"
            + "<th scope=\"col\">State</th><th scope=\"col\" class=\"num\">Answered in</th></tr></thead><tbody>");
    for (var d : dependencies) {
      body.append("<tr><th scope=\"row\">")
          .append(Html.escape(d.name()))
          .append("</th><td><code>")
          .append(Html.escape(d.target()))
          .append("</code></td><td class=\"")
          .append(
              d.problem().isEmpty()
                  ? "up\">up"
                  : "down\">down: " + Html.escape(d.problem().get()))
          .append("</td><td class=\"num\">")
          .append(d.millis())
          .append(" ms</td></tr>");
    }
    body.append(
        "</tbody></table><p class=\"muted\">SMTP shows as <em>outbox</em> when emails are written"
            + " as files instead of sent.</p></section>");

    body.append(
        "<section aria-labelledby=\"queues\" class=\"card\"><h2 id=\"queues\">Work queues</h2>"
            + "<table><thead><tr><th scope=\"col\">Queue</th><th scope=\"col\" class=\"num\">Waiting</th></tr></thead><tbody>");
    for (var q : queues) {
      body.append("<tr><th scope=\"row\"><code>")
          .append(Html.escape(q.name()))
          .append("</code></th><td class=\"num\">")
          .append(q.depth().map(Html::count).orElse("unavailable"))
          .append("</td></tr>");
    }
    body.append("</tbody></table></section>");

    body.append(
        "<section aria-labelledby=\"throughput\" class=\"card\"><h2 id=\"throughput\">Throughput</h2>"
            + "<table><thead><tr><th scope=\"col\">Step</th><th scope=\"col\" class=\"num\">This minute</th>"
            + "<th scope=\"col\" class=\"num\">Last hour</th></tr></thead><tbody>");
    for (FunnelStep step : List.of(
        FunnelStep.SENT,
        FunnelStep.DELIVERED,
        FunnelStep.OPENED,
        FunnelStep.HUMAN_OPENED,
        FunnelStep.CLICKED,
        FunnelStep.BOUNCED,
        FunnelStep.COMPLAINED)) {
      body.append("<tr><th scope=\"row\">")
          .append(step.wire())
          .append("</th><td class=\"num\">")
          .append(Html.count(lastMinute.getOrDefault(step, 0L)))
          .append("</td><td class=\"num\">")
          .append(Html.count(lastHour.getOrDefault(step, 0L)))
          .append("</td></tr>");
    }
    body.append("</tbody></table><p class=\"muted\">Emails that reached each step, all campaigns."
        + " <a href=\"/metrics\">All metrics</a>.</p></section></div>");
    return Html.page("System", Html.Section.SYSTEM, true, body.toString());
  }
}

package dev.tidings.web.dashboard;

import dev.tidings.campaign.Experiment;
import dev.tidings.optimize.ExperimentReport;
import dev.tidings.optimize.stats.Interval;
import java.util.Locale;

/**
 * A campaign's experiment on its page, as the page was loaded: per variant the emails sent, the
 * conversions, the rate with its interval, the comparison with the control and the chance of being best
 * (as a bar); then the decision and when it was made, or why there is none yet.
 */
final class ExperimentSection {
  private ExperimentSection() {}

  static void render(StringBuilder body, ExperimentReport report, Experiment experiment) {
    String metric = experiment.metric() == Experiment.Metric.HUMAN_OPEN ? "opened" : "clicked";
    body.append("<section aria-labelledby=\"experiment\" class=\"card wide\">"
            + "<h2 id=\"experiment\">Experiment</h2><p class=\"muted\">")
        .append(
            experiment.allocation() == Experiment.Allocation.BANDIT
                ? "Bandit: each email's variant drawn by Thompson sampling from the results so far"
                : experiment.testShare() >= 1
                    ? "A/B test on the whole audience, split evenly"
                    : "A/B test on " + Html.percent(experiment.testShare())
                        + " of the audience, the rest held back for the winner")
        .append("; a conversion is a person who ")
        .append(metric)
        .append(" the email; always-valid test at α = ")
        .append(format(experiment.alpha(), 2))
        .append(" split among the challengers.</p>");
    body.append(
        "<div class=\"wide-table\"><table class=\"experiment\"><thead><tr><th scope=\"col\">Variant</th>"
            + "<th scope=\"col\" class=\"num\">Sent</th><th scope=\"col\" class=\"num\">Conversions</th>"
            + "<th scope=\"col\" class=\"num\">Rate (95%)</th>"
            + "<th scope=\"col\" class=\"num\">Against the control</th>"
            + "<th scope=\"col\">Chance of being best</th></tr></thead><tbody>");
    for (var variant : report.variants()) {
      body.append("<tr><th scope=\"row\">")
          .append(Html.escape(variant.name()))
          .append("</th><td class=\"num\">")
          .append(Html.count(variant.sent()))
          .append("</td><td class=\"num\">")
          .append(Html.count(variant.conversions()))
          .append("</td><td class=\"num\">")
          .append(Html.percent(variant.rate()))
          .append(" <span class=\"muted\">")
          .append(points(variant.interval()))
          .append("</span></td><td class=\"num\">")
          .append(variant
              .versusControl()
              .map(versus -> signed(versus.difference()) + " <span class=\"muted\">"
                  + points(versus.interval()) + ", p " + pValue(versus.pValue()) + "</span>")
              .orElse("control"))
          .append(
              "</td><td class=\"barcell\"><span class=\"bar\"><span class=\"b-best\" style=\"width:")
          .append(format(variant.probabilityBest() * 100, 1))
          .append("%\"></span></span> ")
          .append(Html.percent(variant.probabilityBest()))
          .append("</td></tr>");
    }
    body.append("</tbody></table>");
    report
        .decision()
        .ifPresentOrElse(
            decision -> body.append("<p class=\"decision\"><strong>Decided: ")
                .append(Html.escape(report.variants().get(decision.winner()).name()))
                .append(" wins</strong> (")
                .append(Html.time(decision.decidedAt()))
                .append("; difference ")
                .append(signed(decision.difference()))
                .append(' ')
                .append(points(decision.interval()))
                .append(", always-valid p ")
                .append(pValue(decision.pValue()))
                .append(")</p>"),
            () -> body.append("<p class=\"decision\">No decision yet: no variant is better or worse"
                + " than the control at the test's level. The test stays valid however often it is"
                + " looked at.</p>"));
    body.append("</section>");
  }

  /** An interval of rates in percentage points. */
  private static String points(Interval interval) {
    return "[" + format(interval.low() * 100, 1) + ", " + format(interval.high() * 100, 1) + "]";
  }

  private static String pValue(double p) {
    return p < 0.001 ? "< 0.001" : format(p, 3);
  }

  private static String signed(double difference) {
    return (difference >= 0 ? "+" : "−") + format(Math.abs(difference) * 100, 1) + " pts";
  }

  private static String format(double value, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}

package dev.tidings.web.dashboard;

import dev.tidings.campaign.Experiment;
import dev.tidings.optimize.ExperimentReport;
import dev.tidings.optimize.stats.Interval;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

/**
 * A campaign's experiment on its page, as the page was loaded: per variant the emails sent, the
 * conversions, the rate with its interval, the comparison with the control and the chance of being best
 * (as a bar); then the decision and when it was made, or why there is none yet ({@code experiment}
 * template).
 */
final class ExperimentSection {
  private ExperimentSection() {}

  record View(
      String allocation, String metric, String alpha, List<Row> variants, List<Decided> decided) {}

  record Row(
      String name,
      String sent,
      String conversions,
      String rate,
      String interval,
      List<Versus> versus,
      String bestWidth,
      String best) {}

  record Versus(String difference, String interval, String p) {}

  record Decided(String winner, String at, String difference, String interval, String p) {}

  static View of(ExperimentReport report, Experiment experiment, ZoneId zone) {
    String allocation = experiment.allocation() == Experiment.Allocation.BANDIT
        ? "Bandit: each email's variant drawn by Thompson sampling from the results so far"
        : experiment.testShare() >= 1
            ? "A/B test on the whole audience, split evenly"
            : "A/B test on " + Html.percent(experiment.testShare())
                + " of the audience, the rest held back for the winner";
    var rows = report.variants().stream()
        .map(variant -> new Row(
            variant.name(),
            Html.count(variant.sent()),
            Html.count(variant.conversions()),
            Html.percent(variant.rate()),
            points(variant.interval()),
            variant.versusControl().stream()
                .map(versus -> new Versus(
                    signed(versus.difference()),
                    points(versus.interval()),
                    pValue(versus.pValue())))
                .toList(),
            format(variant.probabilityBest() * 100, 1),
            Html.percent(variant.probabilityBest())))
        .toList();
    var decided = report.decision().stream()
        .map(decision -> new Decided(
            report.variants().get(decision.winner()).name(),
            Html.time(decision.decidedAt(), zone),
            signed(decision.difference()),
            points(decision.interval()),
            pValue(decision.pValue())))
        .toList();
    return new View(
        allocation,
        experiment.metric() == Experiment.Metric.HUMAN_OPEN ? "opened" : "clicked",
        format(experiment.alpha(), 2),
        rows,
        decided);
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

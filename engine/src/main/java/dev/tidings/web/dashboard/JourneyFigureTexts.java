package dev.tidings.web.dashboard;

import dev.tidings.journeys.JourneyFigures;
import dev.tidings.optimize.stats.Proportion;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A journey's figures as the texts its page and the list show, each under the {@code data-k} key its
 * cell carries: the page renders them, and the live stream sends the same map, so a figure reads the
 * same before and after it moves.
 */
final class JourneyFigureTexts {
  /** The reasons people leave a journey, as the figures name them, in the order the page lists them. */
  static final Map<String, String> EXITS = exits();

  private JourneyFigureTexts() {}

  private static Map<String, String> exits() {
    var exits = new LinkedHashMap<String, String>();
    exits.put("GOAL", "Out by the goal");
    exits.put("COMPLETED", "Reached the end");
    exits.put("STEP_FAILED", "Out: a step failed");
    return exits;
  }

  /** Everything one journey's page shows that moves. */
  static Map<String, String> page(JourneyFigures.Figures figures) {
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put("entries", Html.count(figures.entries()));
    texts.put("inside", Html.count(figures.inside()));
    texts.put("sent", Html.count(sent(figures)));
    EXITS
        .keySet()
        .forEach(reason ->
            texts.put("exits." + reason, Html.count(figures.exits().getOrDefault(reason, 0L))));
    for (JourneyFigures.StepFigures step : figures.steps()) {
      String p = "s." + step.step() + ".";
      texts.put(p + "inside", Html.count(step.inside()));
      texts.put(p + "sent", Html.count(step.sent()));
      texts.put(p + "opened", Html.count(step.opened()));
      texts.put(p + "clicked", Html.count(step.clicked()));
      texts.put(p + "heldOut", Html.count(step.heldOut()));
      texts.put(p + "failed", Html.count(step.emails().failed()));
      texts.put(p + "unknown", Html.count(step.emails().unknown()));
      // a send step's own lift: those it sent against those it held out, converted after it
      if (figures.goal() != null)
        texts.put(
            p + "lift",
            step.lift()
                .map(lift -> liftLine(lift, "nobody reached it yet"))
                .orElse("nobody reached it yet"));
    }
    figures.lift().ifPresent(lift -> {
      texts.put("lift.sent", rate(lift.sent()));
      texts.put("lift.heldOut", rate(lift.heldOut()));
      texts.put(
          "lift.difference",
          points(lift.difference()) + " (" + points(lift.low()) + " to " + points(lift.high())
              + ")");
      texts.put("lift.p", String.format(Locale.ROOT, "%.3f", lift.pValue()));
      texts.put("lift.verdict", verdict(lift));
    });
    return texts;
  }

  /** One journey's row in the list, its keys under {@code prefix}. */
  static Map<String, String> row(String prefix, JourneyFigures.Figures figures) {
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put(prefix + "entries", Html.count(figures.entries()));
    texts.put(prefix + "inside", Html.count(figures.inside()));
    texts.put(prefix + "sent", Html.count(sent(figures)));
    texts.put(prefix + "goal", Html.count(figures.exits().getOrDefault("GOAL", 0L)));
    texts.put(
        prefix + "lift",
        figures.lift().map(lift -> liftLine(lift, "nobody entered yet")).orElse("no goal"));
    return texts;
  }

  /**
   * A lift in one line; {@code nobody} says there is no one on either side yet, as rates of nobody
   * would read as a measured 0%.
   */
  private static String liftLine(JourneyFigures.Lift lift, String nobody) {
    if (lift.sent().trials() + lift.heldOut().trials() == 0) return nobody;
    if (lift.heldOut().trials() == 0)
      return Html.percent(lift.sent().rate()) + " converted · nobody held out yet";
    return Html.percent(lift.sent().rate()) + " sent vs "
        + Html.percent(lift.heldOut().rate()) + " held out · "
        + (lift.significant() ? "significant" : "not significant yet");
  }

  /** The people the journey's emails went to, over every send step. */
  static long sent(JourneyFigures.Figures figures) {
    return figures.steps().stream().mapToLong(JourneyFigures.StepFigures::sent).sum();
  }

  static String verdict(JourneyFigures.Lift lift) {
    if (lift.heldOut().trials() == 0)
      return "Nobody is held out yet: there is nothing to compare the conversions with.";
    if (!lift.significant())
      return "Not significant yet: the two rates are not told apart at the test's level. The test"
          + " stays valid however often it is looked at.";
    return lift.difference() > 0
        ? "Significant: the people sent the emails convert more than those held out."
        : "Significant: the people sent the emails convert less than those held out.";
  }

  private static String rate(Proportion proportion) {
    return Html.percent(proportion.rate()) + " (" + Html.count(proportion.successes()) + " of "
        + Html.count(proportion.trials()) + ")";
  }

  /** A difference of rates in percentage points, signed. */
  private static String points(double difference) {
    return String.format(Locale.ROOT, "%+.1f pts", difference * 100);
  }
}

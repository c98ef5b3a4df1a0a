package dev.tidings.web.dashboard;

import dev.tidings.campaign.Campaign;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * One journey: its state and the moves it can make, its figures now, the lift against the hold-out,
 * the journey drawn as its steps (each box with what the step does, the people at it now and, for a
 * send, what became of its emails), who enters, and its versions. The figures' cells carry their
 * {@code data-k} keys, which the live stream keeps current.
 */
final class JourneyPage {
  /** The versions the page lists, newest first. */
  static final int VERSIONS = 10;

  private JourneyPage() {}

  /** What the page shows: a version of the journey (the latest, or one asked for), and its figures. */
  record Shown(
      JourneyStore.Saved saved,
      int latestVersion,
      JourneyState state,
      JourneyFigures.Figures figures,
      List<JourneyStore.Saved> versions,
      Optional<String> notice) {}

  record Fact(String label, String key, String value) {}

  record Move(String verb, String label, String hint, boolean danger) {}

  record Link(String href, String text) {}

  record StepBox(
      String id,
      String anchor,
      String type,
      String settings,
      List<Link> campaign,
      String exits,
      int top,
      int height,
      String insideKey,
      String inside,
      boolean send,
      List<Fact> funnel,
      List<Fact> lift) {}

  record Version(int version, String savedAt, String name, boolean latest, boolean shown) {}

  record Lift(String goal, String window, List<Fact> rows, String verdictKey, String verdict) {}

  record View(
      long id,
      String csrf,
      String name,
      String state,
      String stateMeaning,
      List<String> notice,
      List<Move> moves,
      List<Fact> now,
      List<Fact> exits,
      List<Lift> lift,
      String goal,
      String trigger,
      String entry,
      String holdOut,
      int shownVersion,
      int latestVersion,
      boolean older,
      String live,
      String flowSvg,
      int flowWidth,
      int flowHeight,
      int entryHeight,
      int boxWidth,
      List<StepBox> steps,
      List<Version> versions) {}

  /** @param campaigns a send step's campaign by id, for its name and link */
  static String render(Visitor visitor, Shown shown, LongFunction<Optional<Campaign>> campaigns) {
    var journey = shown.saved().journey();
    Map<String, String> texts = JourneyFigureTexts.page(shown.figures());
    var layout = JourneyFlow.of(journey);
    List<StepBox> boxes = new ArrayList<>();
    for (JourneyFlow.Placed placed : layout.steps()) {
      Step step = placed.step();
      String p = "s." + step.id() + ".";
      List<Link> campaign = List.of();
      String settings;
      if (step instanceof Step.Send send) {
        var found = campaigns.apply(send.campaignId());
        campaign = List.of(new Link(
            "/campaigns/" + send.campaignId(),
            found
                .map(c -> c.definition().name())
                .orElse("campaign " + send.campaignId() + " (no longer there)")));
        settings = JourneyWords.settings(step, campaign.getFirst().text());
      } else settings = JourneyWords.settings(step, "");
      boxes.add(new StepBox(
          step.id(),
          "step-" + step.id(),
          JourneyWords.type(step),
          settings,
          campaign,
          JourneyWords.exitLine(step),
          placed.top(),
          placed.height(),
          p + "inside",
          texts.getOrDefault(p + "inside", "0"),
          step instanceof Step.Send,
          step instanceof Step.Send
              ? List.of(
                  fact("Sent", p + "sent", texts),
                  fact("Opened", p + "opened", texts),
                  fact("Clicked", p + "clicked", texts),
                  fact("Held out", p + "heldOut", texts),
                  fact("Failed", p + "failed", texts),
                  fact("Unknown", p + "unknown", texts))
              : List.of(),
          step instanceof Step.Send && journey.goal() != null
              ? List.of(fact("This email's lift", p + "lift", texts))
              : List.of()));
    }
    List<Fact> exits = new ArrayList<>();
    JourneyFigureTexts.EXITS.forEach(
        (reason, label) -> exits.add(fact(label, "exits." + reason, texts)));
    List<Lift> lift = shown.figures().lift().isEmpty()
        ? List.of()
        : List.of(new Lift(
            shown.figures().goal() == null ? "" : shown.figures().goal(),
            JourneyWords.duration(JourneyFigures.attribution()),
            List.of(
                fact("Sent the emails", "lift.sent", texts),
                fact("Held out", "lift.heldOut", texts),
                fact("Difference (95%)", "lift.difference", texts),
                fact("Always-valid p", "lift.p", texts)),
            "lift.verdict",
            texts.getOrDefault("lift.verdict", "")));
    int shownVersion = shown.saved().version();
    boolean older = shownVersion != shown.latestVersion();
    var view = new View(
        shown.saved().id(),
        visitor.token(),
        journey.name(),
        JourneyWords.state(shown.state()),
        JourneyWords.stateMeaning(shown.state()),
        shown.notice().stream().toList(),
        JourneyMove.from(shown.state()).stream()
            .map(move -> new Move(move.verb, move.label, move.hint(), move == JourneyMove.DRAIN))
            .toList(),
        List.of(
            fact("Entries", "entries", texts),
            fact("Inside now", "inside", texts),
            fact("Emails sent", "sent", texts)),
        exits,
        lift,
        JourneyWords.goal(journey.goal()),
        JourneyWords.trigger(journey.trigger()),
        JourneyWords.entry(journey.entry()),
        JourneyWords.holdOut(journey.holdOut()),
        shownVersion,
        shown.latestVersion(),
        older,
        "/live/journeys/" + shown.saved().id() + (older ? "?version=" + shownVersion : ""),
        layout.svg(),
        layout.width(),
        layout.height(),
        JourneyFlow.ENTRY_HEIGHT,
        JourneyFlow.BOX_WIDTH,
        boxes,
        shown.versions().stream()
            .map(saved -> new Version(
                saved.version(),
                Html.time(saved.savedAt(), visitor.zone()),
                saved.journey().name(),
                saved.version() == shown.latestVersion(),
                saved.version() == shownVersion))
            .toList());
    return Html.page(
        journey.name(), Html.Section.JOURNEYS, visitor, Templates.render("journey", view));
  }

  private static Fact fact(String label, String key, Map<String, String> texts) {
    return new Fact(label, key, texts.getOrDefault(key, "0"));
  }
}

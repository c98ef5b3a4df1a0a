package dev.tidings.web.dashboard;

import dev.tidings.campaign.Audience;
import dev.tidings.journeys.EntryRules;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.Step;
import dev.tidings.journeys.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A journey's parts in the words its pages use: what lets people in, who may enter again, what each
 * step does and where it leads. The API's JSON names them for programs; a person reads these.
 */
final class JourneyWords {
  private JourneyWords() {}

  /** A step's way on: its label ("then", an arm's name and share; empty for the only one) and target. */
  record Exit(String label, @Nullable String to) {}

  static String trigger(Trigger trigger) {
    return switch (trigger) {
      case Trigger.SignedUp signedUp -> "They subscribe (with consent to campaigns)";
      case Trigger.Did did ->
        did.times() == 1
            ? "They do " + did.activity() + " (any one such event)"
            : "They do " + did.activity() + " " + did.times() + " times to the same product within "
                + duration(did.within());
      case Trigger.Email email ->
        email.step() == Trigger.EmailStep.OPENED ? "They open an email" : "They click an email";
      case Trigger.ProductNews news ->
        "A product they "
            + (news.interest() == Trigger.Interest.VIEWED ? "viewed" : "put in their cart")
            + " within " + duration(news.within()) + " "
            + (news.news() == Trigger.News.BACK_IN_STOCK ? "is back in stock" : "costs less");
      case Trigger.Lapsed lapsed ->
        "Their last purchase was " + duration(lapsed.since()) + " ago (found by a daily look)";
      case Trigger.DateOf date ->
        "It is the day and month of their " + date.attribute() + " (found by a daily look)";
    };
  }

  static String entry(EntryRules entry) {
    String again = entry.reentryAfter().isZero()
        ? "again as soon as they are out"
        : "again " + duration(entry.reentryAfter()) + " after their last entry";
    return "One journey at a time per person; " + again
        + (entry.segment() == null
            ? ""
            : "; only people in the segment " + segment(entry.segment()));
  }

  /** A segment's conditions as the campaign editor names them: "Country is GB and Follows …". */
  static String segment(Audience segment) {
    List<String> conditions = JourneyForm.rows(segment).stream()
        .map(row -> CampaignForm.kindLabel(row.type()) + " " + row.value())
        .toList();
    return conditions.isEmpty() ? "of everyone" : String.join(" and ", conditions);
  }

  static String goal(@Nullable String goal) {
    return goal == null
        ? "None: people go on to the end of their steps"
        : "Doing " + goal + " takes a person out at once, wherever they are";
  }

  static String holdOut(double share) {
    return share == 0
        ? "Nobody: everyone is sent the emails (no lift can be measured)"
        : Html.percent(share) + " of people go through without being sent anything";
  }

  static String type(Step step) {
    return switch (step) {
      case Step.Wait wait -> "wait";
      case Step.Send send -> "send";
      case Step.Branch branch -> "branch";
      case Step.Split split -> "split";
      case Step.Exit exit -> "exit";
    };
  }

  /** What a step does, {@code campaignName} naming a send step's campaign as the page knows it. */
  static String settings(Step step, String campaignName) {
    return switch (step) {
      case Step.Wait wait ->
        switch (wait.until()) {
          case Step.Until.For duration -> "Waits " + duration(duration.duration());
          case Step.Until.TimeOfDay time ->
            "Waits until " + time.time() + " where the person lives";
          case Step.Until.BestHour best -> "Waits until their best hour within the next day";
        };
      case Step.Send send -> "Sends " + campaignName;
      case Step.Branch branch -> "If " + condition(branch.condition());
      case Step.Split split ->
        "Splits people: "
            + String.join(
                ", ",
                split.arms().stream()
                    .map(arm -> arm.label() + " " + arm.percent() + "%")
                    .toList());
      case Step.Exit exit -> "The journey ends here";
    };
  }

  static String condition(Step.Condition condition) {
    return switch (condition) {
      case Step.Condition.Did did -> "they did " + did.activity() + " since they entered";
      case Step.Condition.Opened opened -> "they opened one of this journey's emails";
      case Step.Condition.Clicked clicked -> "they clicked one of this journey's emails";
      case Step.Condition.InSegment inSegment ->
        "they are in the segment " + segment(inSegment.segment()) + " now";
    };
  }

  /** Where a step leads, in the order the step lists them. */
  static List<Exit> exits(Step step) {
    return switch (step) {
      case Step.Wait wait -> List.of(new Exit("", wait.next()));
      case Step.Send send -> List.of(new Exit("", send.next()));
      case Step.Branch branch ->
        List.of(new Exit("then", branch.then()), new Exit("otherwise", branch.otherwise()));
      case Step.Split split -> {
        var exits = new ArrayList<Exit>();
        for (Step.Split.Arm arm : split.arms())
          exits.add(new Exit(arm.label() + " · " + arm.percent() + "%", arm.next()));
        yield exits;
      }
      case Step.Exit exit -> List.of();
    };
  }

  /** The exits as one line: "then → nudge · otherwise → ends". */
  static String exitLine(Step step) {
    var exits = exits(step);
    if (exits.isEmpty()) return "Everyone here is out";
    return String.join(
        " · ",
        exits.stream()
            .map(exit -> (exit.label().isEmpty() ? "" : exit.label() + " ") + "→ "
                + (exit.to() == null ? "ends" : exit.to()))
            .toList());
  }

  static String state(JourneyState state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  /** What a state means for the people, as the page says it under the journey's name. */
  static String stateMeaning(JourneyState state) {
    return switch (state) {
      case DRAFT -> "A draft: nobody enters and nothing runs.";
      case ACTIVE -> "Active: people enter and move through it.";
      case PAUSED ->
        "Paused: nobody enters and nobody moves; activating it takes everyone on from where"
            + " they are.";
      case DRAINING -> "Draining: nobody enters; the people inside go on to the end.";
    };
  }

  /** A duration as a step's settings say it: whole days, hours, minutes or seconds. */
  static String duration(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds != 0 && seconds % 86_400 == 0) return plural(seconds / 86_400, "day");
    if (seconds != 0 && seconds % 3_600 == 0) return plural(seconds / 3_600, "hour");
    if (seconds != 0 && seconds % 60 == 0) return plural(seconds / 60, "minute");
    return plural(seconds, "second");
  }

  private static String plural(long n, String unit) {
    return n + " " + unit + (n == 1 ? "" : "s");
  }
}

package dev.tidings.web.dashboard;

import dev.tidings.Problem;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each field of a journey sits on the editor's form, and what the form calls it. A problem names
 * its field by the path the API reads ({@code steps[1].campaignId}, {@code trigger.within}); the editor
 * shows it beside the form field of that path, in the form's words: the steps are numbered by the
 * form's rows, which the JSON's places need not be (a row left empty is no step).
 */
final class JourneyFields {
  private JourneyFields() {}

  /** A field of the form: the id its error shows beside, its name in a sentence, how to write it. */
  record Place(String slot, String label, String hint) {}

  /** The slot of problems about the journey as a whole. */
  static final String FORM = "form";

  private static final String DURATION = "a whole number of seconds, minutes, hours or days";
  private static final Place WHOLE = new Place(FORM, "journey", "");
  private static final Pattern STEP = Pattern.compile("steps\\[(\\d+)](?:\\.(.+))?");
  private static final Pattern ARM = Pattern.compile("arms\\[(\\d+)](?:\\.(\\w+))?");
  private static final Pattern STEP_IN_TEXT = Pattern.compile("steps\\[(\\d+)]");
  /** A segment's path under its holder: itself, or one of its conditions and a part of that. */
  private static final Pattern SEGMENT =
      Pattern.compile("segment(?:\\.conditions\\[(\\d+)](?:\\..*)?|\\..*)?");

  private static final Map<String, Place> PLACES = Map.ofEntries(
      Map.entry("name", new Place("name", "name", "at most 200 characters")),
      Map.entry("trigger", new Place("trigger.type", "trigger", "")),
      Map.entry("trigger.type", new Place("trigger.type", "trigger", "")),
      Map.entry(
          "trigger.activity",
          new Place(
              "trigger.activity",
              "activity that lets people in",
              "an activity such as add_to_cart")),
      Map.entry(
          "trigger.times",
          new Place("trigger.times", "number of times", "a whole number from 1 to 100")),
      Map.entry("trigger.within", new Place("trigger.within", "time it looks back", DURATION)),
      Map.entry("trigger.step", new Place("trigger.step", "email event", "opened or clicked")),
      Map.entry("trigger.news", new Place("trigger.news", "product news", "")),
      Map.entry("trigger.interest", new Place("trigger.interest", "interest in the product", "")),
      Map.entry(
          "trigger.since",
          new Place("trigger.since", "time since the last purchase", "1 to 365 days")),
      Map.entry(
          "trigger.attribute",
          new Place("trigger.attribute", "date attribute", "an attribute such as birthday")),
      Map.entry("entry", new Place("entry.reentry", "time before someone enters again", DURATION)),
      Map.entry(
          "entry.reentryAfter",
          new Place("entry.reentry", "time before someone enters again", DURATION)),
      Map.entry("goal", new Place("goal", "goal", "an activity such as purchase, or empty")),
      Map.entry("holdOut", new Place("holdOut", "share held out", "a percentage from 0 to 50")),
      Map.entry("steps", new Place("steps", "steps", "")));

  /**
   * The form field a problem's path names; the whole form for a path the form does not show.
   *
   * @param rowOf the form's row of each step of the JSON
   */
  static Place of(String path, List<Integer> rowOf) {
    Place known = PLACES.get(path);
    if (known != null) return known;
    if (path.startsWith("entry.segment"))
      return segment(path.substring("entry.".length()), "entry.", "the entry segment");
    Matcher step = STEP.matcher(path);
    if (!step.matches()) return WHOLE;
    int row = row(Integer.parseInt(step.group(1)), rowOf);
    String s = "s" + row;
    String of = " of step " + (row + 1);
    String rest = step.group(2);
    if (rest == null) return new Place(s, "step " + (row + 1), "");
    Matcher arm = ARM.matcher(rest);
    if (arm.matches()) {
      String which = "arm " + (Integer.parseInt(arm.group(1)) + 1) + of;
      String part = arm.group(2) == null ? "" : arm.group(2);
      return switch (part) {
        case "label" -> new Place(s + ".arms", "name of " + which, "");
        case "percent" ->
          new Place(s + ".arms", "share of " + which, "a whole number of percent, 1 to 99");
        case "next" -> new Place(s + ".arms", "step after " + which, "a step's id, or empty");
        default -> new Place(s + ".arms", which, "");
      };
    }
    if (rest.startsWith("if.segment"))
      return segment(rest.substring("if.".length()), s + ".", "the segment" + of);
    return switch (rest) {
      case "id" -> new Place(s + ".id", "id" + of, "1 to 40 lowercase letters, digits, - or _");
      case "type" -> new Place(s + ".type", "type" + of, "");
      case "for", "until", "untilBestHour" -> new Place(s + ".for", "wait" + of, DURATION);
      case "untilTimeOfDay" ->
        new Place(s + ".time", "time of day" + of, "a time of day such as 09:30");
      case "campaignId" -> new Place(s + ".campaign", "campaign" + of, "one of the campaigns");
      case "next" -> new Place(s + ".next", "step after step " + (row + 1), "a step's id");
      case "if", "if.type" -> new Place(s + ".if", "condition" + of, "");
      case "if.activity", "condition.activity" ->
        new Place(s + ".activity", "activity" + of, "an activity such as purchase");
      case "then" -> new Place(s + ".then", "then-step" + of, "a step's id");
      case "else" -> new Place(s + ".else", "otherwise-step" + of, "a step's id");
      case "arms" -> new Place(s + ".arms", "arms" + of, "");
      default -> new Place(s, "step " + (row + 1), "");
    };
  }

  /**
   * A place in a segment's condition rows ({@code prefix} + {@code c0}...), or the rows as a whole; a
   * path the segment pattern does not know is the whole segment too.
   */
  private static Place segment(String path, String prefix, String whose) {
    Matcher segment = SEGMENT.matcher(path);
    if (segment.matches() && segment.group(1) != null) {
      int condition = Integer.parseInt(segment.group(1));
      return new Place(
          prefix + "c" + condition + ".value", "condition " + (condition + 1) + " of " + whose, "");
    }
    return new Place(prefix + "segment", whose, "");
  }

  /**
   * The problem in the form's words. The reader's own sentence says what is wrong (a step that goes
   * nowhere, arms that do not add up); only the field it starts with, and any step it names by place,
   * are said as the form says them.
   */
  static String sentence(Problem problem, Place place, List<Integer> rowOf) {
    return switch (problem.rule()) {
      case MISSING -> "Enter the " + place.label() + ".";
      case FORMAT ->
        place.hint().isEmpty()
            ? finish(inFormWords(problem, place, rowOf))
            : "Write the " + place.label() + " as " + place.hint() + ".";
      default ->
        place.slot().equals("holdOut")
            ? "The share held out must be a percentage from 0 to 50."
            : finish(inFormWords(problem, place, rowOf));
    };
  }

  private static String inFormWords(Problem problem, Place place, List<Integer> rowOf) {
    String message = problem.message();
    if (place != WHOLE && !problem.field().isEmpty() && message.startsWith(problem.field() + " ")) {
      // a step or a condition is named by its number, with no article
      String subject =
          place.label().matches("(step|condition) \\d.*") ? place.label() : "the " + place.label();
      message = subject + message.substring(problem.field().length());
    }
    Matcher steps = STEP_IN_TEXT.matcher(message);
    var out = new StringBuilder();
    while (steps.find())
      steps.appendReplacement(out, "step " + (row(Integer.parseInt(steps.group(1)), rowOf) + 1));
    steps.appendTail(out);
    return out.toString();
  }

  private static String finish(String sentence) {
    if (sentence.isEmpty()) return sentence;
    String capital = Character.toUpperCase(sentence.charAt(0)) + sentence.substring(1);
    return capital.endsWith(".") ? capital : capital + ".";
  }

  private static int row(int step, List<Integer> rowOf) {
    return step >= 0 && step < rowOf.size() ? rowOf.get(step) : step;
  }
}

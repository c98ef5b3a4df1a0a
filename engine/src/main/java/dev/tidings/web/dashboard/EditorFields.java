package dev.tidings.web.dashboard;

import dev.tidings.Problem;
import dev.tidings.message.MessageToken;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each field of a campaign definition sits on the editor's form, and what the form calls it. A
 * problem the API finds names its field by path ({@code from}, {@code audience.conditions[2].days}); the
 * editor highlights the form field of that path and says the problem in the form's own words, never
 * by reading the API's sentence, so rewording a message cannot move or lose a highlight.
 */
final class EditorFields {
  private EditorFields() {}

  /** A field of the form: the slot its error shows in, its label, and how a value is written. */
  record Place(String slot, String label, String hint) {}

  /** The slot of problems about the campaign as a whole. */
  static final String FORM = "form";

  private static final Place WHOLE = new Place(FORM, "campaign", "");
  private static final Pattern CONDITION =
      Pattern.compile("audience\\.conditions\\[(\\d+)](?:\\.\\w+)?");
  private static final Pattern VARIANT =
      Pattern.compile("experiment\\.variants\\[(\\d+)](?:\\.(\\w+))?(?:\\..*)?");

  private static final Map<String, Place> PLACES = Map.ofEntries(
      Map.entry("name", new Place("name", "Name", "at most 200 characters")),
      Map.entry(
          "from", new Place("fromEmail", "From address", "an address such as news@example.com")),
      Map.entry(
          "from.email",
          new Place("fromEmail", "From address", "an address such as news@example.com")),
      Map.entry("from.name", new Place("fromEmail", "From name", "")),
      Map.entry(
          "replyTo",
          new Place("replyToEmail", "Reply-to address", "an address such as help@example.com")),
      Map.entry(
          "replyTo.email",
          new Place("replyToEmail", "Reply-to address", "an address such as help@example.com")),
      Map.entry("replyTo.name", new Place("replyToEmail", "Reply-to name", "")),
      Map.entry("subject", new Place("subject", "Subject", "one line of at most 500 characters")),
      Map.entry("html", new Place("html", "HTML part", "")),
      Map.entry("text", new Place("text", "Text part", "")),
      Map.entry(
          "slots",
          new Place(
              "slots",
              "number of open-time product slots",
              "a whole number from 0 to " + MessageToken.MAX_SLOTS)),
      Map.entry("priority", new Place("priority", "Priority", "a whole number from 0 to 9")),
      Map.entry(
          "ratePerSecond", new Place("rate", "Emails per second", "a number above 0, such as 50")),
      Map.entry("scheduledAt", new Place(FORM, "schedule time", "")),
      Map.entry("digest", new Place("digest", "digest", "")),
      Map.entry(
          "digest.lookBackDays",
          new Place("digest", "days the digest looks back", "1 or more days")),
      Map.entry("digest.minimum", new Place("digest", "least number of items", "1 or more items")),
      Map.entry("audience", new Place("audience", "audience", "")),
      Map.entry("audience.type", new Place("audience", "audience", "")),
      Map.entry("audience.conditions", new Place("audience", "conditions", "at most 20")),
      Map.entry("experiment", new Place("experiment", "test of variants", "")),
      Map.entry("experiment.allocation", new Place("experiment", "way to test", "")),
      Map.entry("experiment.metric", new Place("experiment", "winner measure", "")),
      Map.entry(
          "experiment.testShare",
          new Place("experiment", "Test share", "a percentage above 0, at most 100")),
      Map.entry("experiment.alpha", new Place("experiment", "significance level", "")),
      Map.entry("experiment.variants", new Place("experiment", "variants", "2 or 3 variants")),
      Map.entry("sendTime", new Place("sendTime", "send time", "")),
      Map.entry("sendTime.mode", new Place("sendTime", "send time", "")),
      Map.entry(
          "sendTime.within",
          new Place("sendTime", "Within time", "a duration from PT1H to P7D, such as PT24H")),
      Map.entry(
          "sendTime.holdout",
          new Place("sendTime", "share held out", "a percentage from 0 to 50")));

  private static final Map<String, String> VARIANT_PARTS = Map.of(
      "name", "name",
      "subject", "subject",
      "html", "HTML",
      "text", "text",
      "algorithms", "algorithms");

  /** The form field a problem's path names; the whole form for a path the form does not show. */
  static Place of(String path, CampaignForm form) {
    Place known = PLACES.get(path);
    if (known != null) return known;
    Matcher condition = CONDITION.matcher(path);
    if (condition.matches()) {
      int index = Integer.parseInt(condition.group(1));
      String hint = index < form.conditions().size()
          ? CampaignForm.Kind.of(form.conditions().get(index).type())
              .map(kind -> kind.hint)
              .orElse("")
          : "";
      return new Place("c" + index, "value of condition " + (index + 1), hint);
    }
    Matcher variant = VARIANT.matcher(path);
    if (variant.matches()) {
      String part =
          Optional.ofNullable(variant.group(2)).map(VARIANT_PARTS::get).orElse("");
      String label = "variant " + (Integer.parseInt(variant.group(1)) + 1)
          + (part.isEmpty() ? "" : " " + part);
      return new Place("experiment", label, "");
    }
    return WHOLE;
  }

  /** The problem in the form's words, about the field it highlights. */
  static String sentence(Problem problem, Place place) {
    String hint = place.hint().isEmpty() ? "" : " (" + place.hint() + ")";
    if (place == WHOLE || problem.rule() == Problem.Rule.OTHER) {
      // a rule of the whole campaign (a template that does not compile, a name already taken): its
      // reason is the finding itself, told under the field's own name
      String finding = problem.message().startsWith(problem.field() + ": ")
          ? problem.message().substring(problem.field().length() + 2)
          : problem.message();
      return (place == WHOLE ? "The campaign" : capital(place.label())) + ": " + finding + ".";
    }
    return switch (problem.rule()) {
      // the field's hint beside it says how; what is missing needs only its name
      case MISSING -> "Enter the " + place.label() + ".";
      case FORMAT -> "Write the " + place.label() + " as" + asHint(place) + ".";
      case RANGE -> "The " + place.label() + " is outside its limits" + hint + ".";
      case UNKNOWN -> "The " + place.label() + " names nothing Tidings knows" + hint + ".";
      case OTHER -> capital(place.label()) + ": " + problem.message() + ".";
    };
  }

  private static String asHint(Place place) {
    return place.hint().isEmpty() ? " the field asks" : " " + place.hint();
  }

  private static String capital(String label) {
    return label.isEmpty() ? label : Character.toUpperCase(label.charAt(0)) + label.substring(1);
  }
}

package dev.tidings.web.dashboard;

import dev.tidings.Json;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.journeys.Journey;
import dev.tidings.journeys.JourneyJson;
import dev.tidings.journeys.Step;
import dev.tidings.journeys.Trigger;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The journey editor's form: every field as typed, made from a saved journey or from a posted form,
 * and made into the API's JSON, which {@link JourneyJson#fromJson} then judges, so the editor refuses
 * exactly what the API refuses. A duration is a whole number and a unit here; a number that is not one
 * goes on as the text typed, so the journey's own reader names the field it is wrong in. Rows whose
 * type is left empty are dropped; {@link Built#rowOf} says which row each step of the JSON came from.
 */
record JourneyForm(
    String name,
    String triggerType,
    String activity,
    String times,
    String within,
    String withinUnit,
    String emailStep,
    String news,
    String interest,
    String since,
    String sinceUnit,
    String attribute,
    String reentry,
    String reentryUnit,
    List<CampaignForm.ConditionRow> segment,
    String goal,
    String holdOut,
    List<StepRow> steps) {
  /** Empty rows shown after a journey's steps, for steps to add. */
  static final int SPARE_ROWS = 2;

  /** More rows than a journey may have steps is never read: the journey refuses its size first. */
  static final int MAX_ROWS = Journey.MAX_STEPS + 20;

  static final int MAX_ARMS = 10;
  static final List<String> UNITS = List.of("seconds", "minutes", "hours", "days");
  private static final Pattern WHOLE = Pattern.compile("[0-9]{1,9}");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]{1,12}(\\.[0-9]{1,12})?");

  JourneyForm {
    segment = List.copyOf(segment);
    steps = List.copyOf(steps);
  }

  /** One arm of a split, as typed. */
  record Arm(String label, String percent, String next) {
    boolean blank() {
      return label.isBlank() && percent.isBlank() && next.isBlank();
    }
  }

  /**
   * One row of the steps: the fields of every type, of which the row's type uses its own.
   *
   * @param until how a wait ends: {@code for}, {@code time} (of day) or {@code best} (hour)
   * @param condition what a branch asks: {@code did}, {@code opened}, {@code clicked} or {@code
   *     in_segment}
   */
  record StepRow(
      String id,
      String type,
      String until,
      String forAmount,
      String forUnit,
      String time,
      String campaign,
      String next,
      String condition,
      String activity,
      List<CampaignForm.ConditionRow> segment,
      String then,
      String otherwise,
      List<Arm> arms) {
    StepRow {
      segment = List.copyOf(segment);
      arms = List.copyOf(arms);
    }

    static StepRow blank() {
      return new StepRow(
          "", "", "for", "", "hours", "", "", "", "did", "", List.of(), "", "", List.of());
    }
  }

  /** The form's JSON, and for each of its steps the row it came from. */
  record Built(ObjectNode json, List<Integer> rowOf) {}

  static JourneyForm of(Journey journey) {
    String[] within = {"", "hours"};
    String[] since = {"", "days"};
    String activity = "";
    String times = "";
    String emailStep = "opened";
    String news = "back_in_stock";
    String interest = "viewed";
    String attribute = "";
    String type;
    switch (journey.trigger()) {
      case Trigger.SignedUp signedUp -> type = "signed_up";
      case Trigger.Did did -> {
        type = "did";
        activity = did.activity();
        times = Integer.toString(did.times());
        within = amount(did.within());
      }
      case Trigger.Email email -> {
        type = "email";
        emailStep = wire(email.step());
      }
      case Trigger.ProductNews productNews -> {
        type = "product_news";
        news = wire(productNews.news());
        interest = wire(productNews.interest());
        within = amount(productNews.within());
      }
      case Trigger.Lapsed lapsed -> {
        type = "lapsed";
        since = amount(lapsed.since());
      }
      case Trigger.DateOf date -> {
        type = "date_of";
        attribute = date.attribute();
      }
    }
    String[] reentry = journey.entry().reentryAfter().isZero()
        ? new String[] {"0", "days"}
        : amount(journey.entry().reentryAfter());
    return new JourneyForm(
        journey.name(),
        type,
        activity,
        times,
        within[0],
        within[1],
        emailStep,
        news,
        interest,
        since[0],
        since[1],
        attribute,
        reentry[0],
        reentry[1],
        rows(journey.entry().segment()),
        journey.goal() == null ? "" : journey.goal(),
        new BigDecimal(Double.toString(journey.holdOut() * 100))
            .stripTrailingZeros()
            .toPlainString(),
        journey.steps().stream().map(JourneyForm::row).toList());
  }

  private static StepRow row(Step step) {
    StepRow blank = StepRow.blank();
    return switch (step) {
      case Step.Wait wait -> {
        String until = "for";
        String[] amount = {"", "hours"};
        String time = "";
        switch (wait.until()) {
          case Step.Until.For duration -> amount = amount(duration.duration());
          case Step.Until.TimeOfDay timeOfDay -> {
            until = "time";
            time = timeOfDay.time().toString();
          }
          case Step.Until.BestHour best -> until = "best";
        }
        yield new StepRow(
            wait.id(),
            "wait",
            until,
            amount[0],
            amount[1],
            time,
            "",
            text(wait.next()),
            blank.condition(),
            "",
            List.of(),
            "",
            "",
            List.of());
      }
      case Step.Send send ->
        new StepRow(
            send.id(),
            "send",
            blank.until(),
            "",
            blank.forUnit(),
            "",
            Long.toString(send.campaignId()),
            text(send.next()),
            blank.condition(),
            "",
            List.of(),
            "",
            "",
            List.of());
      case Step.Branch branch -> {
        String condition;
        String activity = "";
        List<CampaignForm.ConditionRow> segment = List.of();
        switch (branch.condition()) {
          case Step.Condition.Did did -> {
            condition = "did";
            activity = did.activity();
          }
          case Step.Condition.Opened opened -> condition = "opened";
          case Step.Condition.Clicked clicked -> condition = "clicked";
          case Step.Condition.InSegment inSegment -> {
            condition = "in_segment";
            segment = rows(inSegment.segment());
          }
        }
        yield new StepRow(
            branch.id(),
            "branch",
            blank.until(),
            "",
            blank.forUnit(),
            "",
            "",
            "",
            condition,
            activity,
            segment,
            text(branch.then()),
            text(branch.otherwise()),
            List.of());
      }
      case Step.Split split ->
        new StepRow(
            split.id(),
            "split",
            blank.until(),
            "",
            blank.forUnit(),
            "",
            "",
            "",
            blank.condition(),
            "",
            List.of(),
            "",
            "",
            split.arms().stream()
                .map(arm -> new Arm(arm.label(), Integer.toString(arm.percent()), text(arm.next())))
                .toList());
      case Step.Exit exit ->
        new StepRow(
            exit.id(),
            "exit",
            blank.until(),
            "",
            blank.forUnit(),
            "",
            "",
            "",
            blank.condition(),
            "",
            List.of(),
            "",
            "",
            List.of());
    };
  }

  /** The form as posted; at most {@link #MAX_ROWS} rows and {@link #MAX_ARMS} arms a row are read. */
  static JourneyForm of(FormFields.Fields fields) {
    int rows = Math.min(MAX_ROWS, count(fields.get("rows")));
    List<StepRow> steps = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      String p = "s" + i + ".";
      List<Arm> arms = new ArrayList<>();
      int armCount = Math.min(MAX_ARMS, count(fields.get(p + "arms")));
      for (int a = 0; a < armCount; a++) {
        String q = p + "a" + a + ".";
        arms.add(new Arm(
            fields.get(q + "label").strip(),
            fields.get(q + "percent").strip(),
            fields.get(q + "next").strip()));
      }
      steps.add(new StepRow(
          fields.get(p + "id").strip(),
          fields.get(p + "type"),
          fields.get(p + "until"),
          fields.get(p + "for").strip(),
          fields.get(p + "forUnit"),
          fields.get(p + "time").strip(),
          fields.get(p + "campaign").strip(),
          fields.get(p + "next").strip(),
          fields.get(p + "if"),
          fields.get(p + "activity").strip(),
          conditions(fields, p),
          fields.get(p + "then").strip(),
          fields.get(p + "else").strip(),
          arms));
    }
    return new JourneyForm(
        fields.get("name").strip(),
        fields.get("trigger.type"),
        fields.get("trigger.activity").strip(),
        fields.get("trigger.times").strip(),
        fields.get("trigger.within").strip(),
        fields.get("trigger.withinUnit"),
        fields.get("trigger.step"),
        fields.get("trigger.news"),
        fields.get("trigger.interest"),
        fields.get("trigger.since").strip(),
        fields.get("trigger.sinceUnit"),
        fields.get("trigger.attribute").strip(),
        fields.get("entry.reentry").strip(),
        fields.get("entry.reentryUnit"),
        conditions(fields, "entry."),
        fields.get("goal").strip(),
        fields.get("holdOut").strip(),
        steps);
  }

  /** The same form with {@code more} empty rows after its own. */
  JourneyForm withSpareRows(int more) {
    List<StepRow> rows = new ArrayList<>(steps);
    for (int i = 0; i < more && rows.size() < MAX_ROWS; i++) rows.add(StepRow.blank());
    return new JourneyForm(
        name,
        triggerType,
        activity,
        times,
        within,
        withinUnit,
        emailStep,
        news,
        interest,
        since,
        sinceUnit,
        attribute,
        reentry,
        reentryUnit,
        segment,
        goal,
        holdOut,
        rows);
  }

  /** The form as the API's JSON, for {@link JourneyJson#fromJson} to judge. */
  Built toJson() {
    ObjectNode json = Json.MAPPER.createObjectNode();
    text(json, "name", name);
    json.set("trigger", trigger());
    ObjectNode entry = json.putObject("entry");
    if (!reentry.isBlank()) entry.put("reentryAfter", duration(reentry, reentryUnit));
    if (!segment.isEmpty()) entry.set("segment", segment(segment));
    ArrayNode array = json.putArray("steps");
    List<Integer> rowOf = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      StepRow row = steps.get(i);
      if (row.type().isBlank()) continue;
      array.add(step(row));
      rowOf.add(i);
    }
    text(json, "goal", goal);
    if (!holdOut.isBlank()) {
      if (NUMBER.matcher(holdOut).matches())
        json.put("holdOut", new BigDecimal(holdOut).movePointLeft(2));
      else json.put("holdOut", holdOut);
    }
    return new Built(json, rowOf);
  }

  private ObjectNode trigger() {
    ObjectNode trigger = Json.MAPPER.createObjectNode();
    text(trigger, "type", triggerType);
    switch (triggerType) {
      case "did" -> {
        text(trigger, "activity", activity);
        if (!times.isBlank()) number(trigger, "times", times);
        trigger.put("within", duration(within, withinUnit));
      }
      case "email" -> text(trigger, "step", emailStep);
      case "product_news" -> {
        text(trigger, "news", news);
        text(trigger, "interest", interest);
        trigger.put("within", duration(within, withinUnit));
      }
      case "lapsed" -> trigger.put("since", duration(since, sinceUnit));
      case "date_of" -> text(trigger, "attribute", attribute);
      default -> {
        // signed_up has no field of its own; an unknown type is named by the reader
      }
    }
    return trigger;
  }

  private static ObjectNode step(StepRow row) {
    ObjectNode step = Json.MAPPER.createObjectNode();
    text(step, "id", row.id());
    step.put("type", row.type());
    switch (row.type()) {
      case "wait" -> {
        switch (row.until()) {
          case "time" -> step.put("untilTimeOfDay", row.time());
          case "best" -> step.put("untilBestHour", true);
          default -> step.put("for", duration(row.forAmount(), row.forUnit()));
        }
        next(step, "next", row.next());
      }
      case "send" -> {
        if (!row.campaign().isBlank()) number(step, "campaignId", row.campaign());
        next(step, "next", row.next());
      }
      case "branch" -> {
        ObjectNode condition = step.putObject("if");
        condition.put("type", row.condition());
        if (row.condition().equals("did")) text(condition, "activity", row.activity());
        if (row.condition().equals("in_segment") && !row.segment().isEmpty())
          condition.set("segment", segment(row.segment()));
        next(step, "then", row.then());
        next(step, "else", row.otherwise());
      }
      case "split" -> {
        ArrayNode arms = step.putArray("arms");
        for (Arm arm : row.arms()) {
          if (arm.blank()) continue;
          ObjectNode node = arms.addObject();
          text(node, "label", arm.label());
          if (!arm.percent().isBlank()) number(node, "percent", arm.percent());
          next(node, "next", arm.next());
        }
      }
      default -> {
        // exit has no field of its own; an unknown type is named by the reader
      }
    }
    return step;
  }

  /** A segment's conditions as the campaigns' editor shows them, one row each. */
  static List<CampaignForm.ConditionRow> rows(@Nullable Audience segment) {
    if (segment == null) return List.of();
    List<CampaignForm.ConditionRow> rows = new ArrayList<>();
    for (JsonNode condition : CampaignJson.audienceToJson(segment).path("conditions"))
      rows.add(CampaignForm.row(condition));
    return rows;
  }

  /** The condition rows posted under {@code prefix} ({@code c0.type}, {@code c0.value}...), filled ones. */
  private static List<CampaignForm.ConditionRow> conditions(
      FormFields.Fields fields, String prefix) {
    List<CampaignForm.ConditionRow> rows = new ArrayList<>();
    for (int i = 0; i < CampaignForm.MAX_CONDITIONS + CampaignForm.SPARE_CONDITIONS; i++) {
      var row = new CampaignForm.ConditionRow(
          fields.get(prefix + "c" + i + ".type").strip(), fields.get(prefix + "c" + i + ".value"));
      if (!row.blank()) rows.add(row);
    }
    return rows;
  }

  /** A segment as the API reads it: a campaign's audience of these conditions. */
  private static ObjectNode segment(List<CampaignForm.ConditionRow> rows) {
    ObjectNode segment = Json.MAPPER.createObjectNode().put("type", "segment");
    ArrayNode conditions = segment.putArray("conditions");
    rows.forEach(row -> conditions.add(CampaignForm.condition(row)));
    return segment;
  }

  /** An ISO 8601 duration of a whole number of the unit; otherwise the amount as typed. */
  static String duration(String amount, String unit) {
    if (!WHOLE.matcher(amount).matches()) return amount;
    return switch (unit) {
      case "seconds" -> "PT" + amount + "S";
      case "minutes" -> "PT" + amount + "M";
      case "days" -> "P" + amount + "D";
      default -> "PT" + amount + "H";
    };
  }

  /** A duration as a whole number of the largest unit it is a whole number of. */
  static String[] amount(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds != 0 && seconds % 86_400 == 0) return new String[] {seconds / 86_400 + "", "days"};
    if (seconds != 0 && seconds % 3_600 == 0) return new String[] {seconds / 3_600 + "", "hours"};
    if (seconds != 0 && seconds % 60 == 0) return new String[] {seconds / 60 + "", "minutes"};
    return new String[] {Long.toString(seconds), "seconds"};
  }

  /** A number as a JSON number when it is written as one; otherwise the text, named by the reader. */
  private static void number(ObjectNode node, String field, String text) {
    // a whole number goes as one, which the reader's whole-number fields take (a decimal it
    // refuses)
    if (INTEGER.matcher(text).matches()) node.put(field, Long.parseLong(text));
    else if (NUMBER.matcher(text).matches()) node.put(field, new BigDecimal(text));
    else node.put(field, text);
  }

  private static void text(ObjectNode node, String field, String text) {
    if (!text.isBlank()) node.put(field, text);
  }

  private static void next(ObjectNode node, String field, String text) {
    if (!text.isBlank()) node.put(field, text);
  }

  private static int count(String text) {
    return WHOLE.matcher(text).matches() ? Integer.parseInt(text) : 0;
  }

  private static String text(@Nullable String value) {
    return value == null ? "" : value;
  }

  private static String wire(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}

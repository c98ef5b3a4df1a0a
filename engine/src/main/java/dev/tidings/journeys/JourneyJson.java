package dev.tidings.journeys;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.CampaignJson;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A journey as the API reads and writes it. Durations are ISO 8601 ({@code PT1H}, {@code P3D}), times
 * of day {@code HH:mm}; each sealed choice is an object with a {@code type}. Every problem names its
 * field as the client wrote it ({@code steps[1].campaignId}), all of them in one answer.
 *
 * <pre>{@code
 * {"name": "Abandoned cart",
 *  "trigger": {"type": "did", "activity": "add_to_cart", "times": 1, "within": "PT1H"},
 *  "entry": {"reentryAfter": "P3D"},
 *  "steps": [{"id": "hour", "type": "wait", "for": "PT1H", "next": "reminder"},
 *            {"id": "reminder", "type": "send", "campaignId": 11}],
 *  "goal": "purchase", "holdOut": 0.1}
 * }</pre>
 */
public final class JourneyJson {
  private static final Set<String> FIELDS =
      Set.of("name", "trigger", "entry", "steps", "goal", "holdOut");
  private static final int MAX_TEXT = 200;

  private JourneyJson() {}

  public static Journey fromJson(JsonNode node) {
    if (!(node instanceof ObjectNode object))
      throw new InvalidInputException("a journey must be a JSON object");
    var problems = new Problems();
    unknownFields(problems, object, "", FIELDS);
    String name = required(problems, object, "name", "name");
    Trigger trigger = trigger(problems, object.get("trigger"));
    EntryRules entry = entry(problems, object.get("entry"));
    List<Step> steps = steps(problems, object.get("steps"));
    // a step that could not be read would shift the others' places in the journey's own checks,
    // which
    // name steps by place: what was read wrong is answered alone
    if (steps == null) problems.throwIfAny();
    String goal = JsonFields.string(problems, object.get("goal"), "goal");
    Double holdOut = JsonFields.number(problems, object.get("holdOut"), "holdOut", 0, 1);
    return problems.build(() -> new Journey(
        Problems.toValidate(name),
        Problems.toValidate(trigger),
        entry,
        steps == null ? List.of() : steps,
        goal,
        holdOut == null ? 0 : holdOut));
  }

  public static ObjectNode toJson(Journey journey) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("name", journey.name());
    node.set("trigger", trigger(journey.trigger()));
    ObjectNode entry = node.putObject("entry");
    entry.put("reentryAfter", journey.entry().reentryAfter().toString());
    Audience segment = journey.entry().segment();
    if (segment != null) entry.set("segment", CampaignJson.audienceToJson(segment));
    ArrayNode steps = node.putArray("steps");
    journey.steps().forEach(step -> steps.add(step(step)));
    if (journey.goal() != null) node.put("goal", journey.goal());
    node.put("holdOut", journey.holdOut());
    return node;
  }

  private static ObjectNode trigger(Trigger trigger) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    switch (trigger) {
      case Trigger.SignedUp signedUp -> node.put("type", "signed_up");
      case Trigger.Did did -> {
        node.put("type", "did");
        node.put("activity", did.activity());
        node.put("times", did.times());
        node.put("within", did.within().toString());
      }
      case Trigger.Email email -> {
        node.put("type", "email");
        node.put("step", wire(email.step()));
      }
      case Trigger.ProductNews news -> {
        node.put("type", "product_news");
        node.put("news", wire(news.news()));
        node.put("interest", wire(news.interest()));
        node.put("within", news.within().toString());
      }
      case Trigger.Lapsed lapsed -> {
        node.put("type", "lapsed");
        node.put("since", lapsed.since().toString());
      }
      case Trigger.DateOf date -> {
        node.put("type", "date_of");
        node.put("attribute", date.attribute());
      }
    }
    return node;
  }

  private static ObjectNode step(Step step) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("id", step.id());
    switch (step) {
      case Step.Wait wait -> {
        node.put("type", "wait");
        switch (wait.until()) {
          case Step.Until.For duration -> node.put("for", duration.duration().toString());
          case Step.Until.TimeOfDay time ->
            node.put("untilTimeOfDay", time.time().toString());
          case Step.Until.BestHour best -> node.put("untilBestHour", true);
        }
        node.put("next", wait.next());
      }
      case Step.Send send -> {
        node.put("type", "send");
        node.put("campaignId", send.campaignId());
        node.put("next", send.next());
      }
      case Step.Branch branch -> {
        node.put("type", "branch");
        node.set("if", condition(branch.condition()));
        node.put("then", branch.then());
        node.put("else", branch.otherwise());
      }
      case Step.Split split -> {
        node.put("type", "split");
        ArrayNode arms = node.putArray("arms");
        for (Step.Split.Arm arm : split.arms())
          arms.addObject()
              .put("label", arm.label())
              .put("percent", arm.percent())
              .put("next", arm.next());
      }
      case Step.Exit exit -> node.put("type", "exit");
    }
    return node;
  }

  private static ObjectNode condition(Step.Condition condition) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    switch (condition) {
      case Step.Condition.Did did -> node.put("type", "did").put("activity", did.activity());
      case Step.Condition.Opened opened -> node.put("type", "opened");
      case Step.Condition.Clicked clicked -> node.put("type", "clicked");
      case Step.Condition.InSegment segment ->
        node.put("type", "in_segment")
            .set("segment", CampaignJson.audienceToJson(segment.segment()));
    }
    return node;
  }

  private static @Nullable Trigger trigger(Problems problems, @Nullable JsonNode node) {
    ObjectNode object = object(problems, node, "trigger", true);
    if (object == null) return null;
    String type = type(problems, object, "trigger");
    return switch (type) {
      case "signed_up" -> {
        unknownFields(problems, object, "trigger.", Set.of("type"));
        yield new Trigger.SignedUp();
      }
      case "did" -> {
        unknownFields(problems, object, "trigger.", Set.of("type", "activity", "times", "within"));
        String activity = required(problems, object, "activity", "trigger.activity");
        Long times = JsonFields.whole(problems, object.get("times"), "trigger.times", 1, 100);
        Duration within = duration(problems, object.get("within"), "trigger.within", true);
        yield activity == null || within == null
            ? null
            : new Trigger.Did(activity, times == null ? 1 : times.intValue(), within);
      }
      case "email" -> {
        unknownFields(problems, object, "trigger.", Set.of("type", "step"));
        Trigger.EmailStep step =
            choice(problems, object.get("step"), "trigger.step", Trigger.EmailStep.values());
        yield step == null ? null : new Trigger.Email(step);
      }
      case "product_news" -> {
        unknownFields(problems, object, "trigger.", Set.of("type", "news", "interest", "within"));
        Trigger.News news =
            choice(problems, object.get("news"), "trigger.news", Trigger.News.values());
        Trigger.Interest interest =
            choice(problems, object.get("interest"), "trigger.interest", Trigger.Interest.values());
        Duration within = duration(problems, object.get("within"), "trigger.within", true);
        yield news == null || interest == null || within == null
            ? null
            : new Trigger.ProductNews(news, interest, within);
      }
      case "lapsed" -> {
        unknownFields(problems, object, "trigger.", Set.of("type", "since"));
        Duration since = duration(problems, object.get("since"), "trigger.since", true);
        yield since == null ? null : new Trigger.Lapsed(since);
      }
      case "date_of" -> {
        unknownFields(problems, object, "trigger.", Set.of("type", "attribute"));
        String attribute = required(problems, object, "attribute", "trigger.attribute");
        yield attribute == null ? null : new Trigger.DateOf(attribute);
      }
      default -> {
        unknownType(
            problems, "trigger.type", type, "signed_up, did, email, product_news, lapsed, date_of");
        yield null;
      }
    };
  }

  private static EntryRules entry(Problems problems, @Nullable JsonNode node) {
    ObjectNode object = object(problems, node, "entry", false);
    if (object == null) return EntryRules.ANYONE;
    unknownFields(problems, object, "entry.", Set.of("reentryAfter", "segment"));
    Duration reentry = duration(problems, object.get("reentryAfter"), "entry.reentryAfter", false);
    Audience segment = JsonFields.given(object.get("segment"))
        ? segment(problems, object.get("segment"), "entry")
        : null;
    return new EntryRules(reentry == null ? Duration.ZERO : reentry, segment);
  }

  /** The steps, none when not given (the journey names them missing), null when one was unreadable. */
  private static @Nullable List<Step> steps(Problems problems, @Nullable JsonNode node) {
    if (!JsonFields.given(node)) return List.of();
    if (!(node instanceof ArrayNode array)) {
      problems.add(Problem.format("steps", "steps must be an array of steps"));
      return null;
    }
    if (array.size() > Journey.MAX_STEPS) {
      problems.add(Problem.range("steps", "a journey has at most " + Journey.MAX_STEPS + " steps"));
      return null;
    }
    var steps = new ArrayList<Step>(array.size());
    boolean whole = true;
    for (int i = 0; i < array.size(); i++) {
      Step step = step(problems, array.get(i), "steps[" + i + "]");
      if (step == null) whole = false;
      else steps.add(step);
    }
    return whole ? steps : null;
  }

  private static @Nullable Step step(Problems problems, JsonNode node, String where) {
    ObjectNode object = object(problems, node, where, true);
    if (object == null) return null;
    String id = required(problems, object, "id", where + ".id");
    String type = type(problems, object, where);
    String prefix = where + ".";
    Step step = switch (type) {
      case "wait" -> {
        unknownFields(
            problems,
            object,
            prefix,
            Set.of("id", "type", "for", "untilTimeOfDay", "untilBestHour", "next"));
        Step.Until until = until(problems, object, where);
        yield id == null || until == null
            ? null
            : new Step.Wait(id, until, next(problems, object, "next", where));
      }
      case "send" -> {
        unknownFields(problems, object, prefix, Set.of("id", "type", "campaignId", "next"));
        Long campaign = JsonFields.whole(
            problems, object.get("campaignId"), where + ".campaignId", 1, Long.MAX_VALUE);
        if (campaign == null && !JsonFields.given(object.get("campaignId")))
          problems.add(Problem.missing(where + ".campaignId"));
        yield id == null || campaign == null
            ? null
            : new Step.Send(id, campaign, next(problems, object, "next", where));
      }
      case "branch" -> {
        unknownFields(problems, object, prefix, Set.of("id", "type", "if", "then", "else"));
        Step.Condition condition = condition(problems, object.get("if"), where + ".if");
        yield id == null || condition == null
            ? null
            : new Step.Branch(
                id,
                condition,
                next(problems, object, "then", where),
                next(problems, object, "else", where));
      }
      case "split" -> {
        unknownFields(problems, object, prefix, Set.of("id", "type", "arms"));
        List<Step.Split.Arm> arms = arms(problems, object.get("arms"), where + ".arms");
        yield id == null || arms == null ? null : new Step.Split(id, arms);
      }
      case "exit" -> {
        unknownFields(problems, object, prefix, Set.of("id", "type"));
        yield id == null ? null : new Step.Exit(id);
      }
      default -> {
        unknownType(problems, where + ".type", type, "wait, send, branch, split, exit");
        yield null;
      }
    };
    return step;
  }

  private static Step.@Nullable Until until(Problems problems, ObjectNode object, String where) {
    List<String> given = new ArrayList<>();
    for (String field : List.of("for", "untilTimeOfDay", "untilBestHour"))
      if (JsonFields.given(object.get(field))) given.add(field);
    if (given.size() != 1) {
      problems.add(Problem.at(
          where,
          given.isEmpty() ? Problem.Rule.MISSING : Problem.Rule.OTHER,
          where + " waits by exactly one of for, untilTimeOfDay or untilBestHour"
              + (given.isEmpty() ? "" : ", not " + String.join(" and ", given))));
      return null;
    }
    return switch (given.getFirst()) {
      case "for" -> {
        Duration duration = duration(problems, object.get("for"), where + ".for", true);
        yield duration == null ? null : new Step.Until.For(duration);
      }
      case "untilTimeOfDay" -> {
        String text =
            JsonFields.string(problems, object.get("untilTimeOfDay"), where + ".untilTimeOfDay");
        if (text == null) yield null;
        try {
          yield new Step.Until.TimeOfDay(LocalTime.parse(text));
        } catch (DateTimeParseException e) {
          problems.add(Problem.format(
              where + ".untilTimeOfDay",
              where + ".untilTimeOfDay must be a time of day such as 09:30, not '" + text + "'"));
          yield null;
        }
      }
      default -> {
        Boolean best =
            JsonFields.bool(problems, object.get("untilBestHour"), where + ".untilBestHour");
        if (best != null && !best)
          problems.add(Problem.format(
              where + ".untilBestHour", where + ".untilBestHour is true or left out"));
        yield best == null || !best ? null : new Step.Until.BestHour();
      }
    };
  }

  private static Step.@Nullable Condition condition(
      Problems problems, @Nullable JsonNode node, String where) {
    ObjectNode object = object(problems, node, where, true);
    if (object == null) return null;
    String type = type(problems, object, where);
    String prefix = where + ".";
    return switch (type) {
      case "did" -> {
        unknownFields(problems, object, prefix, Set.of("type", "activity"));
        String activity = required(problems, object, "activity", where + ".activity");
        yield activity == null ? null : new Step.Condition.Did(activity);
      }
      case "opened" -> {
        unknownFields(problems, object, prefix, Set.of("type"));
        yield new Step.Condition.Opened();
      }
      case "clicked" -> {
        unknownFields(problems, object, prefix, Set.of("type"));
        yield new Step.Condition.Clicked();
      }
      case "in_segment" -> {
        unknownFields(problems, object, prefix, Set.of("type", "segment"));
        if (!JsonFields.given(object.get("segment"))) {
          problems.add(Problem.missing(where + ".segment"));
          yield null;
        }
        Audience segment = segment(problems, object.get("segment"), where);
        yield segment == null ? null : new Step.Condition.InSegment(segment);
      }
      default -> {
        unknownType(problems, where + ".type", type, "did, opened, clicked, in_segment");
        yield null;
      }
    };
  }

  private static Step.Split.@Nullable Arm arm(Problems problems, JsonNode node, String where) {
    ObjectNode object = object(problems, node, where, true);
    if (object == null) return null;
    unknownFields(problems, object, where + ".", Set.of("label", "percent", "next"));
    String label = required(problems, object, "label", where + ".label");
    Long percent = JsonFields.whole(problems, object.get("percent"), where + ".percent", 1, 99);
    if (percent == null && !JsonFields.given(object.get("percent")))
      problems.add(Problem.missing(where + ".percent"));
    return label == null || percent == null
        ? null
        : new Step.Split.Arm(label, percent.intValue(), next(problems, object, "next", where));
  }

  private static @Nullable List<Step.Split.Arm> arms(
      Problems problems, @Nullable JsonNode node, String where) {
    if (!(node instanceof ArrayNode array)) {
      problems.add(
          JsonFields.given(node)
              ? Problem.format(where, where + " must be an array of arms")
              : Problem.missing(where));
      return null;
    }
    if (array.size() > 10) {
      problems.add(Problem.range(where, where + " has at most 10 arms"));
      return null;
    }
    var arms = new ArrayList<Step.Split.Arm>();
    boolean whole = true;
    for (int i = 0; i < array.size(); i++) {
      Step.Split.Arm arm = arm(problems, array.get(i), where + "[" + i + "]");
      if (arm == null) whole = false;
      else arms.add(arm);
    }
    return whole ? arms : null;
  }

  private static @Nullable String next(
      Problems problems, ObjectNode object, String field, String where) {
    return JsonFields.string(problems, object.get(field), where + "." + field);
  }

  private static @Nullable ObjectNode object(
      Problems problems, @Nullable JsonNode node, String where, boolean required) {
    if (node == null || !JsonFields.given(node)) {
      if (required) problems.add(Problem.missing(where));
      return null;
    }
    if (node instanceof ObjectNode object) return object;
    problems.add(Problem.format(where, where + " must be an object, got " + JsonFields.kind(node)));
    return null;
  }

  private static String type(Problems problems, ObjectNode object, String where) {
    String type = required(problems, object, "type", where + ".type");
    return type == null ? "" : type;
  }

  private static @Nullable String required(
      Problems problems, ObjectNode object, String field, String where) {
    JsonNode value = object.get(field);
    if (!JsonFields.given(value)) {
      problems.add(Problem.missing(where));
      return null;
    }
    String text = JsonFields.string(problems, value, where);
    if (text != null && text.length() > MAX_TEXT) {
      problems.add(Problem.range(where, where + " has at most " + MAX_TEXT + " characters"));
      return null;
    }
    return text;
  }

  private static @Nullable Duration duration(
      Problems problems, @Nullable JsonNode node, String where, boolean required) {
    if (!JsonFields.given(node)) {
      if (required) problems.add(Problem.missing(where));
      return null;
    }
    String text = JsonFields.string(problems, node, where);
    if (text == null) return null;
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      problems.add(Problem.format(
          where, where + " must be an ISO 8601 duration such as PT1H or P3D, not '" + text + "'"));
      return null;
    }
  }

  private static <E extends Enum<E>> @Nullable E choice(
      Problems problems, @Nullable JsonNode node, String where, E[] values) {
    if (!JsonFields.given(node)) {
      problems.add(Problem.missing(where));
      return null;
    }
    String text = JsonFields.string(problems, node, where);
    if (text == null) return null;
    for (E value : values) if (wire(value).equals(text)) return value;
    unknownType(
        problems,
        where,
        text,
        Arrays.stream(values).map(JourneyJson::wire).collect(Collectors.joining(", ")));
    return null;
  }

  private static String wire(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  private static void unknownType(Problems problems, String where, String given, String known) {
    if (given.isEmpty()) return; // already reported missing
    problems.add(
        Problem.unknown(where, where + " must be one of " + known + ", not '" + given + "'"));
  }

  /**
   * A segment in the shape of a campaign's audience ({@code {"type": "segment", "conditions":
   * [...]}}), its problems named under {@code where}.
   */
  private static @Nullable Audience segment(
      Problems problems, @Nullable JsonNode node, String where) {
    try {
      return CampaignJson.audienceFromJson(node);
    } catch (InvalidInputException e) {
      // the campaigns name a problem under "audience"; here it is where the journey holds it
      for (Problem problem : e.asProblems())
        problems.add(new Problem(
            problem.kind(),
            problem.rule(),
            problem.field().replaceFirst("^audience", where + ".segment"),
            problem.message().replaceFirst("^audience", where + ".segment")));
      return null;
    }
  }

  private static void unknownFields(
      Problems problems, ObjectNode object, String prefix, Set<String> known) {
    object.propertyNames().forEach(field -> {
      if (!known.contains(field))
        problems.add(Problem.unknown(
            prefix + field,
            "unknown field '" + prefix + field + "'; here: "
                + known.stream().sorted().collect(Collectors.joining(", "))));
    });
  }
}

package dev.tidings.campaign;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.audience.TargetType;
import dev.tidings.mail.Address;
import dev.tidings.message.MessageToken;
import dev.tidings.recommend.blend.Algorithm;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A campaign definition as JSON, the one format of the API, the CLI's files and the stored row: read
 * with every problem reported at once ({@link InvalidInputException}, a 422), written back the same way.
 */
public final class CampaignJson {
  public static final int DEFAULT_PRIORITY = 4;
  public static final double DEFAULT_RATE = 100;

  /**
   * The latest time a campaign may be scheduled for. An ISO-8601 instant may name a year far past
   * what PostgreSQL stores; refused here, such a time is a 422 naming the field, not a failed insert.
   */
  public static final Instant LATEST_SCHEDULE = Instant.parse("9999-12-31T23:59:59Z");

  private static final Set<String> FIELDS = Set.of(
      "name",
      "from",
      "replyTo",
      "subject",
      "html",
      "text",
      "audience",
      "slots",
      "priority",
      "ratePerSecond",
      "scheduledAt",
      "digest",
      "experiment",
      "sendTime");
  /** What {@link #toJson(Campaign)} adds: a body read back from GET may be sent again as it is. */
  private static final Set<String> READ_ONLY = Set.of(
      "id", "state", "version", "runId", "createdAt", "updatedAt", "progress", "sendTimeFigures");

  private static final int MAX_CONDITIONS = 20;
  private static final int MAX_VALUES = 1000;
  private static final int MAX_DAYS = 3650;

  private CampaignJson() {}

  /** Reads a whole definition; absent optional fields take their defaults. */
  public static CampaignDefinition fromJson(JsonNode node) {
    if (!(node instanceof ObjectNode object))
      throw new InvalidInputException("a campaign must be a JSON object");
    var problems = new Problems();
    object.propertyNames().forEach(field -> {
      if (!FIELDS.contains(field) && !READ_ONLY.contains(field))
        problems.add(Problem.unknown(
            field,
            "unknown field '" + field + "'; a campaign has "
                + FIELDS.stream().sorted().collect(Collectors.joining(", "))));
    });
    String name = text(problems, object, "name", CampaignDefinition.MAX_NAME, true);
    Address from = address(problems, object.get("from"), "from", true);
    Address replyTo = address(problems, object.get("replyTo"), "replyTo", false);
    String subject = text(problems, object, "subject", CampaignDefinition.MAX_SUBJECT, true);
    if (subject != null && (subject.indexOf('\r') >= 0 || subject.indexOf('\n') >= 0))
      problems.add(
          Problem.format("subject", "subject must not contain a line break (header injection)"));
    String html = text(problems, object, "html", Json.MAX_STRING_CHARS, true);
    String text = text(problems, object, "text", Json.MAX_STRING_CHARS, true);
    Audience audience = audience(problems, object.get("audience"));
    int slots = whole(problems, object, "slots", 0, 0, MessageToken.MAX_SLOTS);
    int priority =
        whole(problems, object, "priority", DEFAULT_PRIORITY, 0, CampaignDefinition.MAX_PRIORITY);
    double rate = rate(problems, object.get("ratePerSecond"));
    Optional<Instant> scheduledAt = instant(problems, object.get("scheduledAt"), "scheduledAt");
    Optional<DigestOptions> digest = digest(problems, object.get("digest"));
    Optional<Experiment> experiment = experiment(problems, object.get("experiment"));
    SendTime sendTime = sendTime(problems, object.get("sendTime"));
    problems.throwIfAny();
    // every required value is present once no problem was found
    return new CampaignDefinition(
        Problems.toValidate(name),
        Problems.toValidate(from),
        Optional.ofNullable(replyTo),
        Problems.toValidate(subject),
        Problems.toValidate(html),
        Problems.toValidate(text),
        audience,
        slots,
        priority,
        rate,
        scheduledAt,
        digest,
        experiment,
        sendTime);
  }

  /**
   * Reads an audience alone, in the shape of a campaign's {@code audience} field (absent or null:
   * everyone); every problem is reported at once, each naming its field under {@code audience}.
   */
  public static Audience audienceFromJson(@Nullable JsonNode node) {
    var problems = new Problems();
    Audience audience = audience(problems, node);
    problems.throwIfAny();
    return audience;
  }

  /** An audience in the wire shape {@link #audienceFromJson} reads. */
  public static ObjectNode audienceToJson(Audience audience) {
    return Json.MAPPER.valueToTree(audience(audience));
  }

  /** The definition's fields (what {@link #fromJson} reads back). */
  public static ObjectNode toJson(CampaignDefinition definition) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("name", definition.name());
    out.set("from", address(definition.from()));
    definition.replyTo().ifPresent(replyTo -> out.set("replyTo", address(replyTo)));
    out.put("subject", definition.subject());
    out.put("html", definition.html());
    out.put("text", definition.text());
    out.set("audience", Json.MAPPER.valueToTree(audience(definition.audience())));
    out.put("slots", definition.slots());
    out.put("priority", definition.priority());
    out.put("ratePerSecond", definition.ratePerSecond());
    definition.scheduledAt().ifPresent(at -> out.put("scheduledAt", at.toString()));
    definition
        .digest()
        .ifPresent(digest -> out.putObject("digest")
            .put("lookBackDays", digest.lookBackDays())
            .put("minimum", digest.minimum()));
    definition.experiment().ifPresent(experiment -> out.set("experiment", toJson(experiment)));
    // at once is the default: a definition that says nothing of it reads back as it was written
    if (definition.sendTime().perSubscriber()) out.set("sendTime", toJson(definition.sendTime()));
    return out;
  }

  /** A stored campaign: its id, state and version, then its definition. */
  public static ObjectNode toJson(Campaign campaign) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("id", campaign.id());
    out.put("state", campaign.state().name());
    out.put("version", campaign.version());
    campaign.runId().ifPresent(run -> out.put("runId", run));
    out.put("createdAt", campaign.createdAt().toString());
    out.put("updatedAt", campaign.updatedAt().toString());
    out.setAll(toJson(campaign.definition()));
    return out;
  }

  /** {@code patch}'s fields in place of {@code current}'s ({@code null} removes an optional field). */
  public static CampaignDefinition merge(CampaignDefinition current, JsonNode patch) {
    if (!(patch instanceof ObjectNode changes))
      throw new InvalidInputException("a campaign patch must be a JSON object");
    ObjectNode merged = toJson(current);
    changes.properties().forEach(entry -> {
      if (entry.getValue().isNull()) merged.remove(entry.getKey());
      else merged.set(entry.getKey(), entry.getValue());
    });
    return fromJson(merged);
  }

  private static ObjectNode address(Address address) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("email", address.email());
    address.name().ifPresent(name -> out.put("name", name));
    return out;
  }

  private static Map<String, Object> audience(Audience audience) {
    Map<String, Object> out = new LinkedHashMap<>();
    switch (audience) {
      case Audience.All all -> out.put("type", "all");
      case Audience.Segment segment -> {
        out.put("type", "segment");
        out.put(
            "conditions",
            segment.conditions().stream().map(CampaignJson::condition).toList());
      }
    }
    return out;
  }

  private static Map<String, Object> condition(Condition condition) {
    Map<String, Object> out = new LinkedHashMap<>();
    switch (condition) {
      case Condition.FieldIn in -> {
        out.put("type", "field");
        out.put("field", in.field().wire());
        out.put("values", in.values());
      }
      case Condition.LocaleIn in -> {
        out.put("type", "locale");
        out.put("locales", in.locales());
      }
      case Condition.Near near -> {
        out.put("type", "near");
        out.put("latitude", near.latitude());
        out.put("longitude", near.longitude());
        out.put("radiusKm", near.radiusKm());
      }
      case Condition.Follows follows -> {
        out.put("type", "follows");
        out.put("targetType", follows.targetType().wire());
        out.put("targetId", follows.targetId());
      }
      case Condition.OpenedCampaign opened -> {
        out.put("type", opened.opened() ? "opened" : "notOpened");
        out.put("campaignId", opened.campaignId());
      }
      case Condition.InExperiment tested -> {
        out.put("type", tested.in() ? "inTest" : "notInTest");
        out.put("campaignId", tested.campaignId());
      }
      case Condition.ClickedWithin clicked -> {
        out.put("type", "clicked");
        out.put("withinDays", clicked.days());
      }
      case Condition.OpenedWithin opened -> {
        out.put("type", "openedWithin");
        out.put("days", opened.days());
      }
    }
    return out;
  }

  private static Audience audience(Problems problems, @Nullable JsonNode node) {
    if (node == null || node.isNull()) return new Audience.All();
    if (!node.isObject()) {
      problems.add(
          Problem.format("audience", "audience must be an object such as {\"type\":\"all\"}"));
      return new Audience.All();
    }
    String type = node.path("type").asString("");
    switch (type) {
      case "all" -> {
        return new Audience.All();
      }
      case "segment" -> {
        JsonNode conditions = node.get("conditions");
        if (conditions == null || !conditions.isArray()) {
          problems.add(Problem.format(
              "audience.conditions", "audience.conditions must be an array of conditions"));
          return new Audience.All();
        }
        if (conditions.size() > MAX_CONDITIONS)
          problems.add(Problem.range(
              "audience.conditions", "a segment has at most " + MAX_CONDITIONS + " conditions"));
        List<Condition> read = new ArrayList<>();
        for (int i = 0; i < conditions.size(); i++) {
          Condition one = condition(problems, conditions.get(i), "audience.conditions[" + i + "]");
          if (one != null) read.add(one);
        }
        return new Audience.Segment(read);
      }
      default -> {
        problems.add(Problem.unknown(
            "audience.type",
            "audience.type must be 'all' or 'segment' but was '" + type + "'"
                + " (lists are segments over subscriber fields here)"));
        return new Audience.All();
      }
    }
  }

  private static @Nullable Condition condition(Problems problems, JsonNode node, String where) {
    if (!node.isObject()) {
      problems.add(Problem.format(where, where + " must be an object"));
      return null;
    }
    int before = problems.list().size();
    String type = orEmpty(JsonFields.string(problems, node.get("type"), where + ".type"));
    Condition condition = switch (type) {
      case "field" -> {
        String fieldName =
            orEmpty(JsonFields.string(problems, node.get("field"), where + ".field"));
        var field = Condition.Field.ofWire(fieldName);
        if (field.isEmpty())
          problems.add(Problem.unknown(
              where + ".field",
              where + ".field must be one of "
                  + Arrays.stream(Condition.Field.values())
                      .map(Condition.Field::wire)
                      .collect(Collectors.joining(", "))
                  + " but was '" + fieldName + "'"));
        List<String> values = strings(problems, node.get("values"), where + ".values");
        yield field.isPresent() ? new Condition.FieldIn(field.get(), values) : null;
      }
      case "locale" ->
        new Condition.LocaleIn(strings(problems, node.get("locales"), where + ".locales"));
      case "near" -> {
        double latitude = number(problems, node.get("latitude"), where + ".latitude", -90, 90);
        double longitude = number(problems, node.get("longitude"), where + ".longitude", -180, 180);
        double radius = number(problems, node.get("radiusKm"), where + ".radiusKm", 0, 20_038);
        yield new Condition.Near(latitude, longitude, radius);
      }
      case "follows" -> {
        String targetType =
            orEmpty(JsonFields.string(problems, node.get("targetType"), where + ".targetType"));
        var target = TargetType.ofWire(targetType);
        if (target.isEmpty())
          problems.add(Problem.unknown(
              where + ".targetType",
              where + ".targetType must be one of "
                  + Arrays.stream(TargetType.values())
                      .map(TargetType::wire)
                      .collect(Collectors.joining(", "))
                  + " but was '" + targetType + "'"));
        String targetId = JsonFields.string(problems, node.get("targetId"), where + ".targetId");
        String targetIdRule = where + ".targetId must be 1-200 characters";
        if (targetId == null && !JsonFields.given(node.get("targetId")))
          problems.add(Problem.at(where + ".targetId", Problem.Rule.MISSING, targetIdRule));
        else if (targetId != null && targetId.isEmpty())
          problems.add(Problem.at(where + ".targetId", Problem.Rule.MISSING, targetIdRule));
        else if (targetId != null && targetId.length() > 200)
          problems.add(Problem.range(where + ".targetId", targetIdRule));
        yield target.isPresent() && targetId != null
            ? new Condition.Follows(target.get(), targetId)
            : null;
      }
      case "opened", "notOpened" -> {
        Long id = campaignId(problems, node.get("campaignId"), where + ".campaignId");
        yield id == null ? null : new Condition.OpenedCampaign(id, type.equals("opened"));
      }
      case "inTest", "notInTest" -> {
        Long id = campaignId(problems, node.get("campaignId"), where + ".campaignId");
        yield id == null ? null : new Condition.InExperiment(id, type.equals("inTest"));
      }
      case "clicked" -> {
        Long days =
            JsonFields.whole(problems, node.get("withinDays"), where + ".withinDays", 1, MAX_DAYS);
        if (days == null) {
          if (!JsonFields.given(node.get("withinDays")))
            problems.add(Problem.at(
                where + ".withinDays",
                Problem.Rule.MISSING,
                where + ".withinDays must be a whole number within 1.." + MAX_DAYS));
          yield null;
        }
        yield new Condition.ClickedWithin(days.intValue());
      }
      case "openedWithin" -> {
        Long days = JsonFields.whole(problems, node.get("days"), where + ".days", 1, MAX_DAYS);
        if (days == null) {
          if (!JsonFields.given(node.get("days")))
            problems.add(Problem.at(
                where + ".days",
                Problem.Rule.MISSING,
                where + ".days must be a whole number within 1.." + MAX_DAYS));
          yield null;
        }
        yield new Condition.OpenedWithin(days.intValue());
      }
      default -> {
        problems.add(Problem.at(
            where + ".type",
            type.isEmpty() ? Problem.Rule.MISSING : Problem.Rule.UNKNOWN,
            where + ".type must be one of field, locale, near, follows, opened,"
                + " notOpened, inTest, notInTest, clicked, openedWithin but was '" + type + "'"));
        yield null;
      }
    };
    return problems.list().size() == before ? condition : null;
  }

  private static List<String> strings(Problems problems, @Nullable JsonNode node, String where) {
    if (node == null || !node.isArray() || node.isEmpty() || node.size() > MAX_VALUES) {
      String message = where + " must be an array of 1.." + MAX_VALUES + " strings";
      Problem.Rule rule = node == null || node.isNull() || (node.isArray() && node.isEmpty())
          ? Problem.Rule.MISSING
          : node.isArray() ? Problem.Rule.RANGE : Problem.Rule.FORMAT;
      problems.add(Problem.at(where, rule, message));
      return List.of();
    }
    List<String> values = new ArrayList<>();
    for (JsonNode value : node) {
      if (!value.isString() || value.asString().isEmpty() || value.asString().length() > 200) {
        problems.add(Problem.format(where, where + " must hold strings of 1-200 characters"));
        return List.of();
      }
      values.add(value.asString());
    }
    return values;
  }

  private static @Nullable Long campaignId(
      Problems problems, @Nullable JsonNode node, String where) {
    if (!JsonFields.given(node)) {
      problems.add(Problem.at(
          where, Problem.Rule.MISSING, where + " must be a campaign id (a whole number >= 1)"));
      return null;
    }
    return JsonFields.whole(problems, node, where, 1, Long.MAX_VALUE);
  }

  private static double number(
      Problems problems, @Nullable JsonNode node, String where, double min, double max) {
    if (!JsonFields.given(node)) {
      problems.add(
          Problem.notANumberIn(where, Problem.Rule.MISSING, "within " + min + ".." + max, ""));
      return 0;
    }
    Double value = JsonFields.number(problems, node, where, min, max);
    return value == null ? 0 : value;
  }

  private static String orEmpty(@Nullable String text) {
    return text == null ? "" : text;
  }

  private static @Nullable String text(
      Problems problems, ObjectNode object, String field, int max, boolean required) {
    JsonNode node = object.get(field);
    if (node == null || node.isNull()) {
      if (required) problems.add(Problem.missing(field));
      return null;
    }
    if (!node.isString()) {
      problems.add(
          Problem.format(field, field + " must be a string, got " + JsonFields.kind(node)));
      return null;
    }
    String value = node.asString();
    if (value.isBlank())
      problems.add(Problem.at(field, Problem.Rule.MISSING, field + " must not be empty"));
    else if (value.length() > max)
      problems.add(Problem.range(
          field, field + " must be at most " + max + " characters, got " + value.length()));
    return value;
  }

  private static @Nullable Address address(
      Problems problems, @Nullable JsonNode node, String field, boolean required) {
    if (node == null || node.isNull()) {
      if (required) problems.add(Problem.missing(field));
      return null;
    }
    String email;
    String emailField = field;
    Optional<String> name = Optional.empty();
    if (node.isString()) {
      email = node.asString();
    } else if (node.isObject() && node.path("email").isString()) {
      email = node.path("email").asString();
      emailField = field + ".email";
      JsonNode given = node.get("name");
      if (given != null && !given.isNull()) {
        if (!given.isString() || given.asString().isEmpty() || given.asString().length() > 200) {
          problems.add(Problem.format(
              field + ".name", field + ".name must be a string of 1-200 characters"));
          return null;
        }
        name = Optional.of(given.asString());
      }
    } else {
      problems.add(Problem.format(
          field,
          field + " must be an address: \"a@example.com\" or {\"email\": ..., \"name\": ...}"));
      return null;
    }
    String normalised = problems.parseEmail(emailField, email);
    if (normalised == null) return null;
    try {
      return new Address(normalised, name);
    } catch (IllegalArgumentException e) {
      problems.add(Problem.format(field, field + ": " + e.getMessage()));
      return null;
    }
  }

  private static int whole(
      Problems problems, ObjectNode object, String field, int fallback, int min, int max) {
    Long value = JsonFields.whole(problems, object.get(field), field, min, max);
    return value == null ? fallback : value.intValue();
  }

  private static ObjectNode toJson(Experiment experiment) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("allocation", experiment.allocation().wire());
    out.put("metric", experiment.metric().wire());
    out.put("testShare", experiment.testShare());
    out.put("alpha", experiment.alpha());
    var variants = out.putArray("variants");
    for (var variant : experiment.variants()) {
      var entry = variants.addObject().put("name", variant.name());
      variant.subject().ifPresent(subject -> entry.put("subject", subject));
      variant.html().ifPresent(html -> entry.put("html", html));
      variant.text().ifPresent(text -> entry.put("text", text));
      if (!variant.algorithms().isEmpty()) {
        var algorithms = entry.putArray("algorithms");
        variant.algorithms().forEach(algorithm -> algorithms.add(algorithm.id()));
      }
    }
    return out;
  }

  private static ObjectNode toJson(SendTime sendTime) {
    return Json.MAPPER
        .createObjectNode()
        .put("mode", sendTime.mode().wire())
        .put("within", sendTime.within().toString())
        .put("holdout", sendTime.holdout());
  }

  private static final Set<String> SEND_TIME_FIELDS = Set.of("mode", "within", "holdout");

  /**
   * {@code {"mode": "at-once"|"per-subscriber", "within": "PT24H", "holdout": 0.1}}, within and
   * holdout optional; absent or null: at once.
   */
  private static SendTime sendTime(Problems problems, @Nullable JsonNode node) {
    if (node == null || node.isNull()) return SendTime.AT_ONCE;
    if (!(node instanceof ObjectNode object)) {
      problems.add(Problem.format(
          "sendTime",
          "sendTime must be an object such as {\"mode\": \"per-subscriber\","
              + " \"within\": \"PT24H\"}"));
      return SendTime.AT_ONCE;
    }
    var inner = new Problems();
    object.propertyNames().forEach(field -> {
      if (!SEND_TIME_FIELDS.contains(field))
        inner.add(Problem.unknown(
            field, "unknown field '" + field + "'; sendTime has holdout, mode, within"));
    });
    SendTime.Mode mode = choice(inner, object, "mode", SendTime.Mode.values(), SendTime.Mode::wire);
    Duration within = SendTime.DEFAULT_WITHIN;
    JsonNode given = object.get("within");
    if (given != null && !given.isNull()) {
      Duration read = null;
      if (given.isString()) {
        try {
          read = Duration.parse(given.asString());
        } catch (DateTimeParseException e) {
          read = null;
        }
      }
      if (read == null
          || read.compareTo(SendTime.MIN_WITHIN) < 0
          || read.compareTo(SendTime.MAX_WITHIN) > 0)
        inner.add(Problem.at(
            "within",
            read == null ? Problem.Rule.FORMAT : Problem.Rule.RANGE,
            "within must be an ISO-8601 duration from " + SendTime.MIN_WITHIN_TEXT + " to "
                + SendTime.MAX_WITHIN_TEXT + " (such as PT24H) but was "
                + JsonFields.shown(given)));
      else within = read;
    }
    double holdout = SendTime.DEFAULT_HOLDOUT;
    JsonNode share = object.get("holdout");
    if (share != null && !share.isNull()) {
      var found = new Problems();
      Double value = JsonFields.number(found, share, "holdout", 0, SendTime.MAX_HOLDOUT);
      if (!found.isEmpty() || value == null)
        inner.add(Problem.notANumberIn(
            "holdout",
            share.isNumber() ? Problem.Rule.RANGE : Problem.Rule.FORMAT,
            "from 0 to " + SendTime.MAX_HOLDOUT,
            JsonFields.shown(share)));
      else holdout = value;
    }
    problems.addUnder("sendTime", inner);
    if (!inner.isEmpty() || mode == null) return SendTime.AT_ONCE;
    return new SendTime(mode, within, holdout);
  }

  private static final Set<String> EXPERIMENT_FIELDS =
      Set.of("allocation", "metric", "variants", "testShare", "alpha");
  private static final Set<String> VARIANT_FIELDS =
      Set.of("name", "subject", "html", "text", "algorithms");

  /**
   * {@code {"allocation": "ab"|"bandit", "metric": "human_open"|"human_click", "variants": [{"name",
   * "subject", "html", "text"}, ...], "testShare": 0.2, "alpha": 0.05}}; absent or null: no experiment.
   */
  private static Optional<Experiment> experiment(Problems problems, @Nullable JsonNode node) {
    if (node == null || node.isNull()) return Optional.empty();
    if (!(node instanceof ObjectNode object)) {
      problems.add(Problem.format(
          "experiment", "experiment must be an object with allocation, metric and variants"));
      return Optional.empty();
    }
    var inner = new Problems();
    object.propertyNames().forEach(field -> {
      if (!EXPERIMENT_FIELDS.contains(field))
        inner.add(Problem.unknown(
            field,
            "unknown field '" + field + "'; an experiment has "
                + EXPERIMENT_FIELDS.stream().sorted().collect(Collectors.joining(", "))));
    });
    Experiment.Allocation allocation = choice(
        inner, object, "allocation", Experiment.Allocation.values(), Experiment.Allocation::wire);
    Experiment.Metric metric =
        choice(inner, object, "metric", Experiment.Metric.values(), Experiment.Metric::wire);
    double share = fraction(inner, object, "testShare", Experiment.DEFAULT_TEST_SHARE, 1);
    double alpha = fraction(inner, object, "alpha", Experiment.DEFAULT_ALPHA, 0.2);
    List<Experiment.Variant> variants = new ArrayList<>();
    JsonNode list = object.get("variants");
    if (list == null || !list.isArray() || list.size() < 2 || list.size() > Experiment.MAX_VARIANTS)
      inner.add(Problem.at(
          "variants",
          list == null || list.isNull()
              ? Problem.Rule.MISSING
              : list.isArray() ? Problem.Rule.RANGE : Problem.Rule.FORMAT,
          "variants must be a list of 2 to " + Experiment.MAX_VARIANTS + " variants"));
    else {
      var names = new HashSet<String>();
      for (int i = 0; i < list.size(); i++) {
        String where = "variants[" + i + "]";
        if (!(list.get(i) instanceof ObjectNode variant)) {
          inner.add(Problem.format(where, where + " must be an object with a name"));
          continue;
        }
        variant.propertyNames().forEach(field -> {
          if (!VARIANT_FIELDS.contains(field))
            inner.add(Problem.unknown(
                where + "." + field,
                where + ": unknown field '" + field + "'; a variant has algorithms, html,"
                    + " name, subject, text"));
        });
        var parts = new Problems();
        String name = text(parts, variant, "name", 40, true);
        String subject = text(parts, variant, "subject", CampaignDefinition.MAX_SUBJECT, false);
        if (subject != null && (subject.indexOf('\r') >= 0 || subject.indexOf('\n') >= 0))
          parts.add(Problem.format(
              "subject", "subject must not contain a line break (header injection)"));
        String html = text(parts, variant, "html", Json.MAX_STRING_CHARS, false);
        String plain = text(parts, variant, "text", Json.MAX_STRING_CHARS, false);
        if (name != null && !names.add(name))
          parts.add(Problem.at("name", Problem.Rule.OTHER, "name '" + name + "' is taken"));
        var algorithms = algorithms(parts, variant.get("algorithms"));
        inner.addUnder(where, parts);
        if (parts.isEmpty() && name != null)
          variants.add(new Experiment.Variant(
              name,
              Optional.ofNullable(subject),
              Optional.ofNullable(html),
              Optional.ofNullable(plain),
              algorithms));
      }
    }
    problems.addUnder("experiment", inner);
    if (!inner.isEmpty() || allocation == null || metric == null) return Optional.empty();
    return Optional.of(new Experiment(allocation, metric, variants, share, alpha));
  }

  /** A variant's recommendation algorithms by id ({@code ["popularity", "co_occurrence"]}). */
  private static Set<Algorithm> algorithms(Problems problems, @Nullable JsonNode node) {
    if (node == null || node.isNull()) return Set.of();
    String known =
        Arrays.stream(Algorithm.values()).map(Algorithm::id).collect(Collectors.joining(", "));
    if (!node.isArray() || node.isEmpty()) {
      problems.add(Problem.format("algorithms", "algorithms must be a list of some of " + known));
      return Set.of();
    }
    var out = EnumSet.noneOf(Algorithm.class);
    for (JsonNode id : node) {
      var algorithm = Algorithm.byId(id.asString(""));
      if (algorithm.isPresent()) out.add(algorithm.get());
      else
        problems.add(
            Problem.unknown("algorithms", "algorithms: " + id + " is not one of " + known));
    }
    return out;
  }

  private static <T> @Nullable T choice(
      Problems problems, ObjectNode object, String field, T[] values, Function<T, String> wire) {
    JsonNode node = object.get(field);
    String names = Arrays.stream(values).map(wire).collect(Collectors.joining(", "));
    if (node == null || node.isNull()) {
      problems.add(Problem.at(
          field, Problem.Rule.MISSING, "missing required field '" + field + "' (" + names + ")"));
      return null;
    }
    for (T value : values) if (wire.apply(value).equals(node.asString(""))) return value;
    problems.add(Problem.unknown(field, field + " must be one of " + names + " but was " + node));
    return null;
  }

  private static double fraction(
      Problems problems, ObjectNode object, String field, double fallback, double max) {
    return aboveZero(problems, object.get(field), field, fallback, max, Double.toString(max));
  }

  /** A number above 0 and at most {@code max}, {@code fallback} when not given. */
  private static double aboveZero(
      Problems problems,
      @Nullable JsonNode node,
      String field,
      double fallback,
      double max,
      String maxShown) {
    var found = new Problems();
    Double value = JsonFields.number(found, node, field, 0, max);
    if (!found.isEmpty() || (value != null && value == 0)) {
      problems.add(Problem.notANumberIn(
          field,
          node == null || node.isNumber() ? Problem.Rule.RANGE : Problem.Rule.FORMAT,
          "above 0 and at most " + maxShown,
          node == null ? "absent" : JsonFields.shown(node)));
      return fallback;
    }
    return value == null ? fallback : value;
  }

  /** {@code {"lookBackDays": 7, "minimum": 1}}, both optional; absent or null: not a digest. */
  private static Optional<DigestOptions> digest(Problems problems, @Nullable JsonNode node) {
    if (node == null || node.isNull()) return Optional.empty();
    if (!(node instanceof ObjectNode object)) {
      problems.add(Problem.format(
          "digest", "digest must be an object such as {\"lookBackDays\": 7, \"minimum\": 1}"));
      return Optional.empty();
    }
    object.propertyNames().forEach(field -> {
      if (!field.equals("lookBackDays") && !field.equals("minimum"))
        problems.add(Problem.unknown(
            "digest." + field,
            "unknown field 'digest." + field + "'; a digest has lookBackDays, minimum"));
    });
    var inner = new Problems();
    int days = whole(
        inner,
        object,
        "lookBackDays",
        DigestOptions.DEFAULT_LOOK_BACK_DAYS,
        1,
        DigestOptions.MAX_LOOK_BACK_DAYS);
    int minimum = whole(inner, object, "minimum", 1, 1, DigestOptions.MAX_MINIMUM);
    problems.addUnder("digest", inner);
    return inner.isEmpty() ? Optional.of(new DigestOptions(days, minimum)) : Optional.empty();
  }

  private static double rate(Problems problems, @Nullable JsonNode node) {
    return aboveZero(
        problems,
        node,
        "ratePerSecond",
        DEFAULT_RATE,
        CampaignDefinition.MAX_RATE,
        Long.toString((long) CampaignDefinition.MAX_RATE));
  }

  private static Optional<Instant> instant(
      Problems problems, @Nullable JsonNode node, String field) {
    if (node == null || node.isNull()) return Optional.empty();
    try {
      if (!node.isString()) throw new DateTimeParseException("not a string", node.toString(), 0);
      Instant at = Instant.parse(node.asString());
      if (at.isAfter(LATEST_SCHEDULE)) {
        problems.add(Problem.range(
            field, field + " must be no later than " + LATEST_SCHEDULE + " but was " + node));
        return Optional.empty();
      }
      return Optional.of(at);
    } catch (DateTimeParseException e) {
      problems.add(Problem.format(
          field,
          field + " must be an ISO-8601 instant such as 2026-12-01T09:00:00Z but was " + node));
      return Optional.empty();
    }
  }
}

package dev.tidings.web.dashboard;

import dev.tidings.Json;
import dev.tidings.campaign.CampaignDefinition;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.SendTime;
import dev.tidings.campaign.editor.StarterTemplate;
import dev.tidings.recommend.blend.Algorithm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The campaign editor's form, as a person typed it. It becomes the API's JSON ({@link #toJson}) and is
 * checked by the same {@link CampaignJson#fromJson}, so the editor can accept nothing the API would
 * refuse; each problem that comes back is shown beside the field its path names ({@link
 * EditorFields}). Values
 * are kept as typed, so a refused form comes back with everything still in it.
 */
record CampaignForm(
    String name,
    String fromEmail,
    String fromName,
    String replyToEmail,
    String replyToName,
    String subject,
    String html,
    String text,
    String slots,
    String priority,
    String rate,
    boolean digest,
    String digestDays,
    String digestMinimum,
    List<ConditionRow> conditions,
    boolean experiment,
    String allocation,
    String metric,
    String testSharePercent,
    List<VariantRow> variants,
    String sendTimeMode,
    String sendTimeWithin,
    String holdoutPercent) {
  /** Condition rows the form offers beyond those filled in, so that no script is needed to add one. */
  static final int SPARE_CONDITIONS = 3;

  static final int MAX_CONDITIONS = 20;
  static final int VARIANT_ROWS = 3;

  /** One condition of the segment: its kind and one text field whose reading depends on the kind. */
  record ConditionRow(String type, String value) {
    boolean blank() {
      return type.isBlank();
    }
  }

  /**
   * One variant of an experiment; blank parts keep the campaign's own. {@code algorithms}, when any,
   * are the only recommendation algorithms its open-time slots blend (by id).
   */
  record VariantRow(String name, String subject, String html, List<String> algorithms) {
    VariantRow {
      algorithms = List.copyOf(algorithms);
    }

    boolean blank() {
      return name.isBlank() && subject.isBlank() && html.isBlank() && algorithms.isEmpty();
    }
  }

  /** The kinds of condition the form offers, each with how its value is written. */
  enum Kind {
    COUNTRY("country", "Country is", "two-letter codes, comma-separated: GB, IE"),
    CITY("city", "City is", "names, comma-separated"),
    TIME_ZONE("timeZone", "Time zone is", "e.g. Europe/London"),
    LOCALE("locale", "Language is", "languages or tags, comma-separated: en, de-AT"),
    FOLLOWS("follows", "Follows", "kind:id, e.g. brand:acme or category:shoes"),
    NEAR("near", "Lives near", "latitude, longitude, radius km: 51.5, -0.12, 25"),
    OPENED_WITHIN("openedWithin", "Opened an email in the last", "days, e.g. 30"),
    CLICKED_WITHIN("clicked", "Clicked in the last", "days, e.g. 30"),
    OPENED("opened", "Opened campaign", "campaign id"),
    NOT_OPENED("notOpened", "Did not open campaign", "campaign id"),
    NOT_IN_TEST("notInTest", "Not in the experiment of campaign", "campaign id");

    final String wire;
    final String label;
    final String hint;

    Kind(String wire, String label, String hint) {
      this.wire = wire;
      this.label = label;
      this.hint = hint;
    }

    static Optional<Kind> of(String wire) {
      return Arrays.stream(values()).filter(k -> k.wire.equals(wire)).findFirst();
    }
  }

  static CampaignForm blank() {
    return new CampaignForm(
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "0",
        Integer.toString(CampaignJson.DEFAULT_PRIORITY),
        number(CampaignJson.DEFAULT_RATE),
        false,
        "7",
        "1",
        List.of(),
        false,
        "ab",
        "human_click",
        "20",
        List.of(),
        SendTime.Mode.AT_ONCE.wire(),
        SendTime.DEFAULT_WITHIN.toString(),
        "10");
  }

  /** A template's starting point; who it is from is the author's to fill in. */
  static CampaignForm of(StarterTemplate starter) {
    var blank = blank();
    return new CampaignForm(
        starter.title(),
        "",
        "",
        "",
        "",
        starter.subject(),
        starter.html(),
        starter.text(),
        Integer.toString(starter.slots()),
        blank.priority(),
        blank.rate(),
        starter.digest().isPresent(),
        starter.digest().map(d -> Integer.toString(d.lookBackDays())).orElse(blank.digestDays()),
        starter.digest().map(d -> Integer.toString(d.minimum())).orElse(blank.digestMinimum()),
        List.of(),
        false,
        blank.allocation(),
        blank.metric(),
        blank.testSharePercent(),
        List.of(),
        blank.sendTimeMode(),
        blank.sendTimeWithin(),
        blank.holdoutPercent());
  }

  /** A stored definition as the form shows it. */
  static CampaignForm of(CampaignDefinition definition) {
    ObjectNode json = CampaignJson.toJson(definition);
    List<ConditionRow> rows = new ArrayList<>();
    for (JsonNode condition : json.path("audience").path("conditions")) rows.add(row(condition));
    List<VariantRow> variants = new ArrayList<>();
    JsonNode experiment = json.path("experiment");
    for (JsonNode variant : experiment.path("variants"))
      variants.add(new VariantRow(
          variant.path("name").asString(""),
          variant.path("subject").asString(""),
          variant.path("html").asString(""),
          variant.path("algorithms").valueStream().map(id -> id.asString("")).toList()));
    return new CampaignForm(
        definition.name(),
        definition.from().email(),
        definition.from().name().orElse(""),
        definition.replyTo().map(a -> a.email()).orElse(""),
        definition.replyTo().flatMap(a -> a.name()).orElse(""),
        definition.subject(),
        definition.html(),
        definition.text(),
        Integer.toString(definition.slots()),
        Integer.toString(definition.priority()),
        number(definition.ratePerSecond()),
        definition.digest().isPresent(),
        definition.digest().map(d -> Integer.toString(d.lookBackDays())).orElse("7"),
        definition.digest().map(d -> Integer.toString(d.minimum())).orElse("1"),
        rows,
        definition.experiment().isPresent(),
        experiment.path("allocation").asString("ab"),
        experiment.path("metric").asString("human_click"),
        definition
            .experiment()
            .map(e -> number(Math.round(e.testShare() * 1000) / 10.0))
            .orElse("20"),
        variants,
        definition.sendTime().mode().wire(),
        definition.sendTime().within().toString(),
        number(Math.round(definition.sendTime().holdout() * 1000) / 10.0));
  }

  /** A stored condition as a row of the form; a journey's segments are written the same way. */
  static ConditionRow row(JsonNode condition) {
    String type = condition.path("type").asString("");
    return switch (type) {
      case "field" ->
        new ConditionRow(condition.path("field").asString(""), joined(condition.path("values")));
      case "locale" -> new ConditionRow("locale", joined(condition.path("locales")));
      case "follows" ->
        new ConditionRow(
            "follows",
            condition.path("targetType").asString("") + ":"
                + condition.path("targetId").asString(""));
      case "near" ->
        new ConditionRow(
            "near",
            number(condition.path("latitude").asDouble()) + ", "
                + number(condition.path("longitude").asDouble()) + ", "
                + number(condition.path("radiusKm").asDouble()));
      case "clicked", "openedWithin" ->
        new ConditionRow(
            type, condition.path("withinDays").asString(condition.path("days").asString("")));
      default -> new ConditionRow(type, condition.path("campaignId").asString(""));
    };
  }

  private static String joined(JsonNode values) {
    List<String> out = new ArrayList<>();
    values.forEach(value -> out.add(value.asString("")));
    return String.join(", ", out);
  }

  /** The form as it was posted; fields it does not hold are blank. */
  static CampaignForm of(FormFields.Fields form) {
    List<ConditionRow> rows = new ArrayList<>();
    for (int i = 0; i < MAX_CONDITIONS + SPARE_CONDITIONS; i++) {
      var row = new ConditionRow(form.get("c" + i + ".type").trim(), form.get("c" + i + ".value"));
      if (!row.blank()) rows.add(row);
    }
    List<VariantRow> variants = new ArrayList<>();
    for (int i = 0; i < VARIANT_ROWS; i++) {
      String prefix = "v" + i + ".";
      var variant = new VariantRow(
          form.get(prefix + "name").trim(),
          form.get(prefix + "subject"),
          form.get(prefix + "html"),
          Arrays.stream(Algorithm.values())
              .map(Algorithm::id)
              .filter(id -> form.get(prefix + "alg." + id).equals("on"))
              .toList());
      if (!variant.blank()) variants.add(variant);
    }
    return new CampaignForm(
        form.get("name"),
        form.get("fromEmail").trim(),
        form.get("fromName"),
        form.get("replyToEmail").trim(),
        form.get("replyToName"),
        form.get("subject"),
        lines(form.get("html")),
        lines(form.get("text")),
        form.get("slots").trim(),
        form.get("priority").trim(),
        form.get("rate").trim(),
        form.get("digest").equals("on"),
        form.get("digestDays").trim(),
        form.get("digestMinimum").trim(),
        rows,
        form.get("experiment").equals("on"),
        form.get("allocation"),
        form.get("metric"),
        form.get("testShare").trim(),
        variants,
        form.get("sendTime").trim(),
        form.get("within").trim(),
        form.get("holdout").trim());
  }

  /** A browser posts a textarea's lines with CR LF; the templates keep the author's LF. */
  private static String lines(String posted) {
    return posted.replace("\r\n", "\n");
  }

  /** The form with a block added: its content, and the slots and digest the block needs. */
  CampaignForm withContent(String newHtml, String newText, String newSlots, boolean newDigest) {
    return new CampaignForm(
        name,
        fromEmail,
        fromName,
        replyToEmail,
        replyToName,
        subject,
        newHtml,
        newText,
        newSlots,
        priority,
        rate,
        newDigest,
        digestDays,
        digestMinimum,
        conditions,
        experiment,
        allocation,
        metric,
        testSharePercent,
        variants,
        sendTimeMode,
        sendTimeWithin,
        holdoutPercent);
  }

  /** The definition as the API takes it; {@code scheduledAt} is kept from the stored campaign. */
  ObjectNode toJson(Optional<Instant> scheduledAt) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("name", name);
    if (!fromEmail.isBlank()) out.set("from", address(fromEmail, fromName));
    if (!replyToEmail.isBlank()) out.set("replyTo", address(replyToEmail, replyToName));
    out.put("subject", subject);
    out.put("html", html);
    out.put("text", text);
    out.set("audience", audienceJson());
    putNumber(out, "slots", slots);
    putNumber(out, "priority", priority);
    putNumber(out, "ratePerSecond", rate);
    scheduledAt.ifPresent(at -> out.put("scheduledAt", at.toString()));
    if (digest) {
      ObjectNode options = out.putObject("digest");
      putNumber(options, "lookBackDays", digestDays);
      putNumber(options, "minimum", digestMinimum);
    }
    // at once is the default: only a per-subscriber choice (or a mode the API should name) is sent
    if (!sendTimeMode.isBlank() && !sendTimeMode.equals(SendTime.Mode.AT_ONCE.wire())) {
      ObjectNode sendTime = out.putObject("sendTime");
      sendTime.put("mode", sendTimeMode);
      if (!sendTimeWithin.isBlank()) sendTime.put("within", sendTimeWithin);
      JsonNode share = numberNode(holdoutPercent);
      if (share.isNumber()) sendTime.put("holdout", share.asDouble() / 100);
      else if (!holdoutPercent.isBlank()) sendTime.set("holdout", share);
    }
    if (experiment) {
      ObjectNode test = out.putObject("experiment");
      test.put("allocation", allocation);
      test.put("metric", metric);
      JsonNode share = numberNode(testSharePercent);
      if (share.isNumber()) test.put("testShare", share.asDouble() / 100);
      else if (!testSharePercent.isBlank()) test.set("testShare", share);
      ArrayNode list = test.putArray("variants");
      for (VariantRow variant : variants) {
        ObjectNode entry = list.addObject().put("name", variant.name());
        if (!variant.subject().isBlank()) entry.put("subject", variant.subject());
        if (!variant.html().isBlank()) entry.put("html", lines(variant.html()));
        if (!variant.algorithms().isEmpty()) {
          ArrayNode algorithms = entry.putArray("algorithms");
          variant.algorithms().forEach(algorithms::add);
        }
      }
    }
    return out;
  }

  /** The audience alone, as the API takes it (a segment with no condition is everyone). */
  ObjectNode audienceJson() {
    ObjectNode audience = Json.MAPPER.createObjectNode();
    if (conditions.isEmpty()) return audience.put("type", "all");
    audience.put("type", "segment");
    ArrayNode list = audience.putArray("conditions");
    for (ConditionRow row : conditions) list.add(condition(row));
    return audience;
  }

  /** A row of the form as the API's condition. */
  static ObjectNode condition(ConditionRow row) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    String value = row.value().trim();
    switch (row.type()) {
      case "country", "city", "timeZone" -> {
        out.put("type", "field").put("field", row.type());
        ArrayNode values = out.putArray("values");
        split(value).forEach(values::add);
      }
      case "locale" -> {
        out.put("type", "locale");
        ArrayNode values = out.putArray("locales");
        split(value).forEach(values::add);
      }
      case "follows" -> {
        int colon = value.indexOf(':');
        out.put("type", "follows")
            .put("targetType", colon < 0 ? "" : value.substring(0, colon).trim())
            .put("targetId", colon < 0 ? value : value.substring(colon + 1).trim());
      }
      case "near" -> {
        out.put("type", "near");
        List<String> parts = split(value);
        String[] names = {"latitude", "longitude", "radiusKm"};
        for (int i = 0; i < names.length && i < parts.size(); i++)
          out.set(names[i], numberNode(parts.get(i)));
      }
      // a blank value is left out, so that the API reports it as missing, not as a wrong number
      case "clicked" -> putNumber(out.put("type", "clicked"), "withinDays", value);
      case "openedWithin" -> putNumber(out.put("type", "openedWithin"), "days", value);
      default -> putNumber(out.put("type", row.type()), "campaignId", value);
    }
    return out;
  }

  private static List<String> split(String value) {
    return Arrays.stream(value.split(","))
        .map(String::trim)
        .filter(part -> !part.isEmpty())
        .toList();
  }

  private static ObjectNode address(String email, String name) {
    ObjectNode out = Json.MAPPER.createObjectNode().put("email", email);
    if (!name.isBlank()) out.put("name", name.trim());
    return out;
  }

  /** A number as typed; what does not read as one is passed on as text, for the API to name. */
  private static void putNumber(ObjectNode out, String field, String typed) {
    if (!typed.isBlank()) out.set(field, numberNode(typed));
  }

  private static JsonNode numberNode(String typed) {
    String t = typed.trim();
    try {
      return Json.MAPPER.getNodeFactory().numberNode(Long.parseLong(t));
    } catch (NumberFormatException notWhole) {
      try {
        double d = Double.parseDouble(t);
        if (Double.isFinite(d) && !t.matches(".*[a-zA-Z].*"))
          return Json.MAPPER.getNodeFactory().numberNode(d);
      } catch (NumberFormatException notNumber) {
        // passed on as text below
      }
    }
    return Json.MAPPER.getNodeFactory().stringNode(t);
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }

  static String kindLabel(String wire) {
    return Kind.of(wire).map(k -> k.label).orElse(wire.toLowerCase(Locale.ROOT));
  }
}

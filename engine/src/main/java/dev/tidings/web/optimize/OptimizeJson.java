package dev.tidings.web.optimize;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problems;
import dev.tidings.optimize.CountDelta;
import dev.tidings.optimize.ItemChange;
import dev.tidings.optimize.ItemConfiguration;
import dev.tidings.optimize.stats.Interval;
import dev.tidings.optimize.stats.Intervals;
import dev.tidings.optimize.stats.ProbabilityBest;
import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.TestMethod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Item configurations, counts and changes as JSON; reading names every problem at once. */
final class OptimizeJson {
  static final int MAX_ATTRIBUTES = 32;
  static final int MAX_VALUE_CHARS = 2_048;
  private static final Set<String> CONFIGURATION_FIELDS =
      Set.of("attributes", "current", "itemId", "configurationId");
  private static final Set<String> COUNT_FIELDS =
      Set.of("itemId", "configurationId", "impressions", "conversions");

  private OptimizeJson() {}

  /** A PUT body: the configuration's attributes, and whether to make it current. */
  record ConfigurationBody(Map<String, String> attributes, boolean current) {}

  static ConfigurationBody configuration(JsonNode body) {
    var problems = new ArrayList<String>();
    if (!body.isObject()) throw new InvalidInputException("expected a JSON object with attributes");
    for (String name : body.propertyNames())
      if (!CONFIGURATION_FIELDS.contains(name))
        problems.add("unknown field " + Problems.quote(name) + "; expected attributes and current");
    var attributes = new LinkedHashMap<String, String>();
    JsonNode given = body.path("attributes");
    if (given.isMissingNode() || given.isNull()) {
      // no attributes: a configuration may be only a name until the catalog fills it in
    } else if (!given.isObject()) {
      problems.add("attributes must be an object of names to text, numbers or booleans");
    } else {
      if (given.size() > MAX_ATTRIBUTES)
        problems.add("at most " + MAX_ATTRIBUTES + " attributes, got " + given.size());
      for (var entry : given.properties()) {
        String name = entry.getKey();
        JsonNode value = entry.getValue();
        if (name.isEmpty() || name.length() > 64)
          problems.add("an attribute name is 1-64 characters");
        else if (!value.isValueNode() || value.isNull())
          problems.add(
              "attribute " + Problems.quote(name) + " must be text, a number or a boolean");
        else if (value.asString().length() > MAX_VALUE_CHARS)
          problems.add("attribute " + Problems.quote(name) + " is longer than " + MAX_VALUE_CHARS
              + " characters");
        else attributes.put(name, value.asString());
      }
    }
    // absent or null: not made current, as JSON null reads "not given" in every body
    var found = new Problems();
    Boolean current = JsonFields.bool(found, body.get("current"), "current");
    problems.addAll(found.list());
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return new ConfigurationBody(attributes, Boolean.TRUE.equals(current));
  }

  /** A batch of counts: an array of {itemId, configurationId, impressions, conversions}. */
  static List<CountDelta> counts(JsonNode body) {
    if (!body.isArray())
      throw new InvalidInputException(
          "expected a JSON array of counts, each with itemId, configurationId, impressions and conversions");
    var problems = new ArrayList<String>();
    var counts = new ArrayList<CountDelta>(body.size());
    int position = 0;
    for (JsonNode element : body) {
      position++;
      if (!element.isObject()) {
        problems.add("count " + position + ": expected an object");
        continue;
      }
      var unknown = element.propertyNames().stream()
          .filter(n -> !COUNT_FIELDS.contains(n))
          .toList();
      if (!unknown.isEmpty()) {
        problems.add("count " + position + ": unknown field " + Problems.quote(unknown.getFirst()));
        continue;
      }
      JsonNode impressions = element.path("impressions");
      JsonNode conversions = element.path("conversions");
      if (!isCount(impressions) || !isCount(conversions)) {
        problems.add("count " + position
            + ": impressions and conversions must be whole numbers (0 when absent)");
        continue;
      }
      var found = new Problems();
      CountDelta count = found.element(
          "",
          "",
          () -> new CountDelta(
              element.path("itemId").asString(""),
              element.path("configurationId").asString(""),
              impressions.asLong(0),
              conversions.asLong(0)));
      if (count != null) counts.add(count);
      else problems.add("count " + position + ": " + String.join("; ", found.list()));
    }
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return counts;
  }

  private static boolean isCount(JsonNode node) {
    return node.isMissingNode() || (node.isIntegralNumber() && node.canConvertToLong());
  }

  static ObjectNode toJson(ItemConfiguration configuration) {
    var json = Json.MAPPER.createObjectNode();
    json.put("itemId", configuration.itemId());
    json.put("configurationId", configuration.configurationId());
    var attributes = json.putObject("attributes");
    configuration.attributes().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> attributes.put(e.getKey(), e.getValue()));
    json.put("current", configuration.current());
    json.put("impressions", configuration.impressions());
    json.put("conversions", configuration.conversions());
    json.put("rate", configuration.counts().rate());
    putInterval(json, "interval", Intervals.wilson(configuration.counts(), 0.95));
    return json;
  }

  /** Monte Carlo draws for the probability of being best: its error is below 0.005 at any probability. */
  static final int PROBABILITY_DRAWS = 20_000;

  static ObjectNode toJson(String itemId, List<ItemConfiguration> configurations) {
    var json = Json.MAPPER.createObjectNode();
    json.put("itemId", itemId);
    // Seeded by the item and its counts, so the same counts always answer the same.
    long seed = itemId.hashCode();
    for (var c : configurations) seed = seed * 31 + c.impressions() * 17 + c.conversions();
    double[] best = ProbabilityBest.of(
        configurations.stream().map(ItemConfiguration::counts).toList(),
        PROBABILITY_DRAWS,
        new SplittableRandom(seed));
    var array = json.putArray("configurations");
    for (int i = 0; i < configurations.size(); i++)
      array.add(toJson(configurations.get(i)).put("probabilityBest", best[i]));
    return json;
  }

  static ObjectNode toJson(ItemChange change) {
    var json = Json.MAPPER.createObjectNode();
    json.put("itemId", change.itemId());
    json.put("currentConfigurationId", change.currentConfigurationId());
    json.put("bestConfigurationId", change.bestConfigurationId());
    putCounts(json.putObject("current"), change.current());
    putCounts(json.putObject("best"), change.best());
    var result = change.result();
    json.put("difference", result.difference());
    if (Double.isNaN(result.relativeLift())) json.putNull("relativeLift");
    else json.put("relativeLift", result.relativeLift());
    putInterval(json, "differenceInterval", result.differenceInterval());
    json.put("pValue", result.pValue());
    json.put("test", result.method() == TestMethod.Z_TEST ? "z-test" : "fisher-exact");
    json.put("challengers", change.challengers());
    json.put("adjustedPValue", change.adjustedPValue());
    json.put("threshold", change.threshold());
    return json;
  }

  private static void putCounts(ObjectNode json, Proportion counts) {
    json.put("impressions", counts.trials());
    json.put("conversions", counts.successes());
    json.put("rate", counts.rate());
  }

  private static void putInterval(ObjectNode json, String name, Interval interval) {
    var node = json.putObject(name);
    node.put("low", interval.low());
    node.put("high", interval.high());
  }
}

package dev.tidings.web.webhooks;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.events.CloudEventType;
import dev.tidings.webhooks.EndpointFields;
import dev.tidings.webhooks.WebhookEndpoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** An endpoint's JSON: what a request may set, and what an answer shows (never its secret). */
final class WebhookJson {
  private static final Set<String> FIELDS = Set.of("url", "description", "eventTypes", "enabled");

  private WebhookJson() {}

  /** The fields a request sets, their JSON types checked; the store checks their values. */
  static EndpointFields fields(JsonNode body) {
    if (!body.isObject())
      throw new InvalidInputException(
          "expected an object: {\"url\", \"description\", \"eventTypes\", \"enabled\"}");
    var problems = new ArrayList<Problem>();
    for (String name : body.propertyNames())
      if (!FIELDS.contains(name))
        problems.add(Problem.unknown(
            name,
            "unknown field '" + name + "'; an endpoint has url, description, eventTypes, enabled"));
    Optional<String> url = text(body, "url", problems);
    Optional<String> description = text(body, "description", problems);
    Optional<Set<CloudEventType>> types = Optional.empty();
    JsonNode typesNode = body.get("eventTypes");
    if (typesNode != null && !typesNode.isNull()) {
      if (!typesNode.isArray())
        problems.add(Problem.format(
            "eventTypes", "eventTypes must be an array of event types ([] for every type)"));
      else {
        var chosen = EnumSet.noneOf(CloudEventType.class);
        for (int i = 0; i < typesNode.size(); i++) {
          JsonNode type = typesNode.get(i);
          String field = "eventTypes[" + i + "]";
          var known = type.isString()
              ? CloudEventType.named(type.asString())
              : Optional.<CloudEventType>empty();
          if (known.isPresent()) chosen.add(known.get());
          else
            problems.add(Problem.unknown(
                field,
                field + ": " + (type.isString() ? "'" + type.asString() + "'" : type.toString())
                    + " is not an event type; the types are " + typeNames()));
        }
        types = Optional.of(chosen);
      }
    }
    Optional<Boolean> enabled = Optional.empty();
    JsonNode enabledNode = body.get("enabled");
    if (enabledNode != null && !enabledNode.isNull()) {
      if (!enabledNode.isBoolean())
        problems.add(Problem.format("enabled", "enabled must be true or false"));
      else enabled = Optional.of(enabledNode.asBoolean());
    }
    if (!problems.isEmpty()) throw InvalidInputException.of(problems);
    return new EndpointFields(url, description, types, enabled);
  }

  private static Optional<String> text(JsonNode body, String field, ArrayList<Problem> problems) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) return Optional.empty();
    if (!node.isString()) {
      problems.add(Problem.format(field, field + " must be a string"));
      return Optional.empty();
    }
    return Optional.of(node.asString());
  }

  private static String typeNames() {
    return Arrays.stream(CloudEventType.values())
        .map(CloudEventType::typeName)
        .collect(Collectors.joining(", "));
  }

  static ObjectNode toJson(WebhookEndpoint endpoint) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("id", endpoint.id());
    json.put("url", endpoint.url().toString());
    json.put("description", endpoint.description());
    var types = json.putArray("eventTypes");
    endpoint.types().stream().map(CloudEventType::typeName).sorted().forEach(types::add);
    json.put("enabled", endpoint.enabled());
    json.put("createdAt", endpoint.createdAt().toString());
    json.put("updatedAt", endpoint.updatedAt().toString());
    putInstant(json, "previousSecretValidUntil", endpoint.previousSecretUntil());
    putInstant(json, "lastSuccessAt", endpoint.lastSuccessAt());
    putInstant(json, "lastFailureAt", endpoint.lastFailureAt());
    if (endpoint.lastFailure() != null) json.put("lastFailure", endpoint.lastFailure());
    else json.putNull("lastFailure");
    json.put("failuresInARow", endpoint.failuresInARow());
    return json;
  }

  private static void putInstant(ObjectNode json, String field, @Nullable Instant instant) {
    if (instant == null) json.putNull(field);
    else json.put(field, instant.toString());
  }
}

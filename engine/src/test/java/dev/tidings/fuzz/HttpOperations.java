package dev.tidings.fuzz;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The operations of a node's OpenAPI document, and a valid example body built from each one's schema. */
final class HttpOperations {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** One parameter of an operation: where it goes (path, query, header) and its name. */
  record Parameter(String name, String in) {}

  /** One method on one path, as the document names it. */
  record Operation(
      String method, String template, List<Parameter> parameters, Map<String, JsonNode> bodies) {
    String route() {
      return method + " " + template;
    }

    List<Parameter> in(String where) {
      return parameters.stream().filter(p -> p.in().equals(where)).toList();
    }
  }

  private HttpOperations() {}

  static List<Operation> of(JsonNode document) {
    List<Operation> operations = new ArrayList<>();
    JsonNode paths = document.path("paths");
    for (String template : paths.propertyNames()) {
      JsonNode item = paths.get(template);
      List<Parameter> shared = parameters(document, item.path("parameters"));
      for (String method : item.propertyNames()) {
        if (method.equals("parameters")) continue;
        JsonNode operation = item.get(method);
        List<Parameter> parameters = new ArrayList<>(shared);
        for (Parameter own : parameters(document, operation.path("parameters"))) {
          parameters.removeIf(p -> p.name().equals(own.name()) && p.in().equals(own.in()));
          parameters.add(own);
        }
        for (String name : pathNames(template)) {
          if (parameters.stream().noneMatch(p -> p.name().equals(name) && p.in().equals("path")))
            parameters.add(new Parameter(name, "path"));
        }
        Map<String, JsonNode> bodies = new LinkedHashMap<>();
        JsonNode content = operation.path("requestBody").path("content");
        for (String type : content.propertyNames())
          bodies.put(type, example(document, content.get(type).path("schema"), 0));
        operations.add(
            new Operation(method.toUpperCase(Locale.ROOT), template, parameters, bodies));
      }
    }
    return operations;
  }

  static List<String> pathNames(String template) {
    List<String> names = new ArrayList<>();
    var matcher = Pattern.compile("\\{([^}]+)}").matcher(template);
    while (matcher.find()) names.add(matcher.group(1));
    return names;
  }

  private static List<Parameter> parameters(JsonNode document, JsonNode list) {
    List<Parameter> parameters = new ArrayList<>();
    for (JsonNode parameter : list) {
      JsonNode resolved = resolve(document, parameter);
      parameters.add(
          new Parameter(resolved.path("name").asString(""), resolved.path("in").asString("")));
    }
    return parameters;
  }

  private static JsonNode resolve(JsonNode document, JsonNode node) {
    JsonNode current = node;
    for (int depth = 0; depth < 10 && current.has("$ref"); depth++) {
      String ref = current.get("$ref").asString("");
      JsonNode target = document;
      for (String part : ref.replaceFirst("^#/", "").split("/")) target = target.path(part);
      current = target;
    }
    return current;
  }

  /** A value that the schema describes: every property, the first of each choice, plain values. */
  static JsonNode example(JsonNode document, JsonNode schemaOrRef, int depth) {
    JsonNode schema = resolve(document, schemaOrRef);
    if (depth > 6) return NODES.nullNode();
    if (schema.has("example")) return schema.get("example").deepCopy();
    if (schema.has("default")) return schema.get("default").deepCopy();
    if (schema.has("enum") && !schema.get("enum").isEmpty())
      return schema.get("enum").get(0).deepCopy();
    for (String choice : List.of("oneOf", "anyOf", "allOf")) {
      if (schema.has(choice) && !schema.get(choice).isEmpty())
        return example(document, schema.get(choice).get(0), depth + 1);
    }
    String type = type(schema);
    switch (type) {
      case "object" -> {
        ObjectNode object = NODES.objectNode();
        JsonNode properties = schema.path("properties");
        for (String name : properties.propertyNames())
          object.set(name, example(document, properties.get(name), depth + 1));
        if (properties.isEmpty() && schema.path("additionalProperties").isObject())
          object.set("key", example(document, schema.get("additionalProperties"), depth + 1));
        return object;
      }
      case "array" -> {
        ArrayNode array = NODES.arrayNode();
        array.add(example(document, schema.path("items"), depth + 1));
        return array;
      }
      case "integer" -> {
        return NODES.numberNode(
            schema.path("minimum").asLong(1) < 1 ? 1 : schema.path("minimum").asLong(1));
      }
      case "number" -> {
        return NODES.numberNode(1.5);
      }
      case "boolean" -> {
        return NODES.booleanNode(true);
      }
      default -> {
        return NODES.stringNode(
            switch (schema.path("format").asString("")) {
              case "date-time" -> "2026-01-02T03:04:05Z";
              case "uri" -> "https://shop.example/fuzz";
              case "email" -> "ada@example.com";
              default -> "fuzz-1";
            });
      }
    }
  }

  private static String type(JsonNode schema) {
    JsonNode type = schema.path("type");
    if (type.isArray()) {
      for (Iterator<JsonNode> it = type.iterator(); it.hasNext(); ) {
        String one = it.next().asString("");
        if (!one.equals("null")) return one;
      }
    }
    if (type.isString()) return type.asString();
    if (schema.has("properties")) return "object";
    return "string";
  }
}

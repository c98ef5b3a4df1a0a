package dev.tidings.fuzz;

import dev.tidings.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Structure-aware changes to a JSON document, the mistakes and attacks a client's body can carry: a field
 * deleted or duplicated under another name, a value retyped (string, number, object, array, null,
 * boolean), numbers past every range, NUL and control characters, long strings, unicode oddities.
 * Deterministic for a given {@link Random}.
 */
public final class JsonMutations {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Strings a parser should refuse or keep, never choke on. */
  public static final List<String> ODD_STRINGS = List.of(
      "",
      " ",
      "\u0000",
      "a\u0000b",
      "\u0001\u001f\u007f",
      "\r\n",
      "line\nbreak",
      "\uD800",
      "\uDFFF\uD800",
      "\uFEFF",
      "\u202E",
      "\u200B",
      "😀",
      "Ω≈ç√",
      "%00",
      "%",
      "%zz",
      "../../etc/passwd",
      "<script>alert(1)</script>",
      "{{#a}}{{/b}}",
      "{{",
      "'; DROP TABLE subscribers; --",
      "a@b",
      "@",
      "x@y@z",
      "https://",
      "http://[::1]/",
      "http://127.0.0.1:99999/",
      "javascript:alert(1)",
      "-1",
      "0",
      "1e400",
      "NaN",
      "9999-12-31T23:59:59Z",
      "+1000000000-01-01T00:00:00Z",
      "2026-02-30T00:00:00Z",
      "true",
      "null");

  /** Numbers at and past the edges of int, long, double and decimal. */
  public static final List<String> ODD_NUMBERS = List.of(
      "0",
      "-0",
      "-0.0",
      "1",
      "-1",
      "0.5",
      "2147483647",
      "2147483648",
      "-2147483649",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775809",
      "18446744073709551616",
      "1e308",
      "1e309",
      "1e400",
      "-1e400",
      "1e-400",
      "4.9e-324",
      "123456789012345678901234567890.123456789",
      "1e2147483647",
      "0.0000000000000000000000000000001");

  /**
   * Writes mutated documents: Tidings' own mapper writes decimals plain and cannot write 1e2147483647, so
   * this one keeps the exponent.
   */
  private static final JsonMapper WRITER = JsonMapper.builder().build();

  private JsonMutations() {}

  public static String write(JsonNode document) {
    return WRITER.writeValueAsString(document);
  }

  /** One to three changes to a copy of {@code document}. */
  public static JsonNode mutate(JsonNode document, Random random) {
    JsonNode copy = document.deepCopy();
    int changes = 1 + random.nextInt(3);
    for (int i = 0; i < changes; i++) copy = mutateOnce(copy, random);
    return copy;
  }

  private static JsonNode mutateOnce(JsonNode root, Random random) {
    List<JsonNode> containers = new ArrayList<>();
    collectContainers(root, containers);
    if (containers.isEmpty() || random.nextInt(20) == 0) return oddValue(random);
    JsonNode container = containers.get(random.nextInt(containers.size()));
    if (container instanceof ObjectNode object) {
      List<String> names = new ArrayList<>(object.propertyNames());
      if (names.isEmpty()) {
        object.set(oddName(random), oddValue(random));
        return root;
      }
      String name = names.get(random.nextInt(names.size()));
      switch (random.nextInt(6)) {
        case 0 -> object.remove(name);
        case 1 -> object.set(name + "_", object.get(name).deepCopy());
        case 2 -> object.set(oddName(random), oddValue(random));
        default -> object.set(name, retype(object.get(name), random));
      }
    } else if (container instanceof ArrayNode array) {
      if (array.isEmpty()) {
        array.add(oddValue(random));
        return root;
      }
      int index = random.nextInt(array.size());
      switch (random.nextInt(5)) {
        case 0 -> array.remove(index);
        case 1 -> {
          int copies = random.nextInt(4) == 0 ? 1000 : 1;
          for (int i = 0; i < copies; i++) array.add(array.get(index).deepCopy());
        }
        default -> array.set(index, retype(array.get(index), random));
      }
    }
    return root;
  }

  private static void collectContainers(JsonNode node, List<JsonNode> into) {
    if (node.isObject() || node.isArray()) {
      into.add(node);
      for (JsonNode child : node) collectContainers(child, into);
    }
  }

  /** The value as another JSON type, or an odd value of its own type. */
  static JsonNode retype(JsonNode value, Random random) {
    return switch (random.nextInt(9)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.stringNode(value.isValueNode() ? value.asString("") : value.toString());
      case 2 -> oddNumber(random);
      case 3 -> NODES.objectNode().set("value", value.deepCopy());
      case 4 -> NODES.arrayNode().add(value.deepCopy());
      case 5 -> NODES.booleanNode(random.nextBoolean());
      case 6 -> NODES.stringNode(oddString(random));
      case 7 ->
        NODES.stringNode(decorate(value.isString() ? value.asString() : value.toString(), random));
      default -> oddValue(random);
    };
  }

  public static JsonNode oddValue(Random random) {
    return switch (random.nextInt(7)) {
      case 0 -> NODES.nullNode();
      case 1 -> oddNumber(random);
      case 2 -> NODES.objectNode();
      case 3 -> NODES.arrayNode();
      case 4 -> NODES.booleanNode(random.nextBoolean());
      default -> NODES.stringNode(oddString(random));
    };
  }

  public static JsonNode oddNumber(Random random) {
    return Json.MAPPER.readTree(ODD_NUMBERS.get(random.nextInt(ODD_NUMBERS.size())));
  }

  public static String oddString(Random random) {
    return switch (random.nextInt(8)) {
      case 0 -> "x".repeat(1 + random.nextInt(70_000));
      case 1 -> "é".repeat(1 + random.nextInt(3_000));
      default -> ODD_STRINGS.get(random.nextInt(ODD_STRINGS.size()));
    };
  }

  private static String oddName(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> "";
      case 1 -> "__proto__";
      case 2 -> "a\u0000";
      default -> "extra";
    };
  }

  /** The text with an odd piece inserted, appended, or in its place. */
  public static String decorate(String text, Random random) {
    String odd = oddString(random);
    return switch (random.nextInt(3)) {
      case 0 -> text + odd;
      case 1 -> odd + text;
      default -> {
        int at = text.isEmpty() ? 0 : random.nextInt(text.length());
        yield text.substring(0, at) + odd + text.substring(at);
      }
    };
  }
}

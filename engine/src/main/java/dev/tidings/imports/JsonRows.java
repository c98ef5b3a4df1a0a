package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;

/**
 * JSON objects (a JSON line, an API request body) into records, through the same {@link RowMapper}
 * as CSV rows: a JSON value is checked against the field's type, then handed over as text.
 */
public final class JsonRows {
  private JsonRows() {}

  /** The record for one JSON object, or {@link InvalidInputException} listing every problem. */
  public static <T> T read(JsonNode node, RowMapper<T> mapper) {
    var fields = new RowFields(mapper.schema());
    fill(node, fields);
    return mapper.map(fields);
  }

  /** The record for a map (e.g. a request body already read as a map), same rules as {@link #read}. */
  public static <T> T readMap(Map<String, ?> map, RowMapper<T> mapper) {
    JsonNode node = Json.MAPPER.valueToTree(map);
    return read(node, mapper);
  }

  /** Fills {@code fields} from a JSON object; throws when the shape is wrong (unknown field, wrong type). */
  static void fill(JsonNode node, RowFields fields) {
    if (!node.isObject())
      throw new InvalidInputException(Problem.format(
          "", "expected a JSON object, got " + node.getNodeType().name().toLowerCase(Locale.ROOT)));
    var problems = new Problems();
    RowSchema schema = fields.schema();
    for (var entry : node.properties()) {
      String name = entry.getKey();
      OptionalInt index = schema.indexOf(name);
      if (index.isEmpty()) {
        problems.add(Problem.unknown(
            name,
            "unknown field '" + name + "' (fields: " + String.join(", ", schema.names()) + ")"));
        continue;
      }
      set(fields, index.getAsInt(), entry.getValue(), problems);
    }
    problems.throwIfAny();
  }

  private static void set(RowFields fields, int index, JsonNode value, Problems problems) {
    if (value.isNull()) return;
    FieldSpec spec = fields.schema().field(index);
    switch (spec.type()) {
      case TEXT -> {
        if (value.isString()) fields.setText(index, value.stringValue());
        else
          problems.add(Problem.format(
              spec.name(), spec.name() + " must be a string, got " + JsonFields.kind(value)));
      }
      case DECIMAL -> {
        if (value.isNumber() && !plainFits(value))
          problems.add(Problem.range(
              spec.name(),
              spec.name() + " must have at most " + MAX_PLAIN_DIGITS
                  + " digits on each side of the point"));
        else if (value.isNumber()) fields.setText(index, plain(value));
        else if (value.isString()) fields.setText(index, value.stringValue());
        else problems.add(Problem.notANumber(spec.name(), JsonFields.kind(value)));
      }
      case INTEGER -> {
        if (value.isIntegralNumber()) fields.setText(index, value.asString());
        else if (value.isString()) fields.setText(index, value.stringValue());
        else
          problems.add(Problem.format(
              spec.name(), spec.name() + " must be an integer, got " + JsonFields.kind(value)));
      }
      case BOOLEAN -> {
        if (value.isBoolean()) fields.setText(index, value.asString());
        else
          problems.add(Problem.format(
              spec.name(), spec.name() + " must be true or false, got " + JsonFields.kind(value)));
      }
      case STRING_MAP -> {
        Map<String, String> map = RowFields.toStringMap(value);
        if (map == null)
          problems.add(Problem.format(
              spec.name(), spec.name() + " must be an object whose values are strings"));
        else fields.setMap(index, map);
      }
    }
  }

  /**
   * The bound of a decimal column in any format ({@link RowFields#MAX_DECIMAL_DIGITS}): 1E2147483647
   * written out plainly would take gigabytes.
   */
  private static final int MAX_PLAIN_DIGITS = RowFields.MAX_DECIMAL_DIGITS;

  private static boolean plainFits(JsonNode number) {
    BigDecimal decimal = number.decimalValue();
    // in long: a scale of Integer.MIN_VALUE + 1 would wrap the difference in int
    return (long) decimal.precision() - decimal.scale() <= MAX_PLAIN_DIGITS
        && decimal.scale() <= MAX_PLAIN_DIGITS;
  }

  private static String plain(JsonNode number) {
    BigDecimal decimal = number.decimalValue();
    return decimal.toPlainString();
  }
}

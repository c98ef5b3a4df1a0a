package dev.tidings.imports;

import dev.tidings.Problem;
import dev.tidings.Problems;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The raw values of one row, whatever it came from (a CSV record, a JSON line, an API request body):
 * text for scalars, a map for a JSON object of strings. The typed accessors parse the text and record
 * what does not parse in {@link Problems}, so every source gets the same messages.
 *
 * <p>One instance is reused for every row of an import: it is filled, mapped, then cleared.
 */
public final class RowFields {
  /** Digits a decimal may have on either side of its point: far past any price or coordinate. */
  static final int MAX_DECIMAL_DIGITS = 30;

  private final RowSchema schema;
  private final @Nullable Object[] values;

  RowFields(RowSchema schema) {
    this.schema = schema;
    this.values = new Object[schema.size()];
  }

  RowSchema schema() {
    return schema;
  }

  void clear() {
    Arrays.fill(values, null);
  }

  /** Sets a value given as text (a CSV cell, a JSON string or number); empty text means "not given". */
  void setText(int index, @Nullable String text) {
    values[index] = text == null || text.isEmpty() ? null : text;
  }

  void setMap(int index, Map<String, String> map) {
    values[index] = map;
  }

  public boolean isGiven(int index) {
    return values[index] != null;
  }

  public @Nullable String text(int index) {
    return values[index] instanceof String s ? s : null;
  }

  public Optional<String> optionalText(int index) {
    return Optional.ofNullable(text(index));
  }

  private String name(int index) {
    return schema.field(index).name();
  }

  public @Nullable BigDecimal decimal(int index, Problems problems) {
    String text = text(index);
    if (text == null) return null;
    BigDecimal value;
    try {
      if (text.length() > 40) throw new NumberFormatException();
      value = new BigDecimal(text);
    } catch (NumberFormatException e) {
      problems.add(Problem.format(
          name(index), name(index) + " must be a decimal number, got " + Problems.quote(text)));
      return null;
    }
    // 1e400 is 5 characters: bound the digits, not only the text, before it becomes a double or a
    // numeric PostgreSQL cannot hold
    if (value.precision() - value.scale() > MAX_DECIMAL_DIGITS
        || value.scale() > MAX_DECIMAL_DIGITS) {
      problems.add(Problem.range(
          name(index),
          name(index) + " must have at most " + MAX_DECIMAL_DIGITS
              + " digits before and after the decimal point, got " + Problems.quote(text)));
      return null;
    }
    return value;
  }

  public @Nullable Long integer(int index, Problems problems) {
    String text = text(index);
    if (text == null) return null;
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      problems.add(Problem.format(
          name(index), name(index) + " must be an integer, got " + Problems.quote(text)));
      return null;
    }
  }

  public @Nullable Boolean bool(int index, Problems problems) {
    String text = text(index);
    if (text == null) return null;
    return switch (text) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> {
        problems.add(Problem.format(
            name(index), name(index) + " must be true or false, got " + Problems.quote(text)));
        yield null;
      }
    };
  }

  public @Nullable Instant instant(int index, Problems problems) {
    String text = text(index);
    if (text == null) return null;
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      problems.add(Problem.format(
          name(index),
          name(index) + " must be an ISO-8601 instant such as 2024-05-01T12:00:00Z, got "
              + Problems.quote(text)));
      return null;
    }
  }

  /** A JSON object of strings: given as a map (JSON) or as its JSON text (a CSV cell). */
  @SuppressWarnings("unchecked")
  public @Nullable Map<String, String> stringMap(int index, Problems problems) {
    Object value = values[index];
    if (value == null) return null;
    if (value instanceof Map<?, ?> map) return (Map<String, String>) map;
    String text = (String) value;
    try {
      Map<String, String> map = StringMaps.parse(text);
      if (map == null) {
        problems.add(Problem.format(
            name(index),
            name(index) + " must be a JSON object of strings, got " + Problems.quote(text)));
      }
      return map;
    } catch (JacksonException e) {
      problems.add(Problem.format(
          name(index),
          name(index) + " must be a JSON object of strings, got malformed JSON "
              + Problems.quote(text)));
      return null;
    }
  }

  /** The object's entries when it is an object whose values are all strings, otherwise null. */
  static @Nullable Map<String, String> toStringMap(JsonNode node) {
    if (!node.isObject()) return null;
    var map = new LinkedHashMap<String, String>();
    for (var entry : node.properties()) {
      if (!entry.getValue().isString()) return null;
      map.put(entry.getKey(), entry.getValue().stringValue());
    }
    return Collections.unmodifiableMap(map);
  }
}

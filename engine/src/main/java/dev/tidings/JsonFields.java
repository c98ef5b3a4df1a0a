package dev.tidings;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Typed reads of single JSON values for the hand-written readers (campaigns, content, settings), with the
 * shared wording: a value of the wrong type is a problem that names the field and the expected type (never
 * dropped, never coerced from another type), and a number is range-checked as the exact decimal the client
 * sent before it becomes an int or a double (1e400 is not Infinity, 1e30 is not Integer.MAX_VALUE).
 * Absent and JSON null both read as "not given" (null); the caller decides whether that is allowed.
 */
public final class JsonFields {
  private JsonFields() {}

  /** Whether the value was given: present and not JSON null. */
  public static boolean given(@Nullable JsonNode value) {
    return value != null && !value.isNull() && !value.isMissingNode();
  }

  /** A string, or null when not given; a problem naming {@code where} when it is not a string. */
  public static @Nullable String string(Problems problems, @Nullable JsonNode value, String where) {
    if (value == null || !given(value)) return null;
    if (value.isString()) return value.stringValue();
    problems.add(Problem.format(where, where + " must be a string, got " + kind(value)));
    return null;
  }

  /** true/false, or null when not given; a problem naming {@code where} when it is not a boolean. */
  public static @Nullable Boolean bool(Problems problems, @Nullable JsonNode value, String where) {
    if (value == null || !given(value)) return null;
    if (value.isBoolean()) return value.booleanValue();
    problems.add(Problem.format(where, where + " must be true or false, got " + kind(value)));
    return null;
  }

  /**
   * A number within {@code min..max} (both included), or null when not given; a problem naming
   * {@code where} when it is not a number, not finite, or out of range.
   */
  public static @Nullable Double number(
      Problems problems, @Nullable JsonNode value, String where, double min, double max) {
    if (value == null || !given(value)) return null;
    if (!value.isNumber()) {
      problems.add(Problem.notANumber(where, kind(value)));
      return null;
    }
    BigDecimal exact = exact(value);
    if (exact == null
        || exact.compareTo(BigDecimal.valueOf(min)) < 0
        || exact.compareTo(BigDecimal.valueOf(max)) > 0) {
      problems.add(Problem.range(
          where,
          where + " must be within " + min + ".." + max + " but was " + shown(value, exact)));
      return null;
    }
    return exact.doubleValue();
  }

  /**
   * A whole number within {@code min..max}, or null when not given; a problem naming {@code where} when it
   * is not a whole number (2.5, "3", an object) or out of range, however many digits it has.
   */
  public static @Nullable Long whole(
      Problems problems, @Nullable JsonNode value, String where, long min, long max) {
    if (value == null || !given(value)) return null;
    BigDecimal exact = value.isIntegralNumber() ? exact(value) : null;
    if (exact == null
        || exact.compareTo(BigDecimal.valueOf(min)) < 0
        || exact.compareTo(BigDecimal.valueOf(max)) > 0) {
      String message =
          where + " must be a whole number within " + min + ".." + max + " but was " + shown(value);
      // 2.5 or "3" is the wrong form; 0 for 1..9 is the right form out of range
      problems.add(
          value.isIntegralNumber()
              ? Problem.range(where, message)
              : Problem.format(where, message));
      return null;
    }
    return exact.longValueExact();
  }

  /** The value as an exact decimal, or null when it is not a finite number. */
  private static @Nullable BigDecimal exact(JsonNode value) {
    if (!value.isNumber()) return null;
    if (value.isFloatingPointNumber() && !(value.isBigDecimal())) {
      double d = value.doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    if (value.isBigInteger()) return new BigDecimal((BigInteger) value.bigIntegerValue());
    return value.decimalValue();
  }

  /** What a value is, for messages: "a string", "an object", ... */
  public static String kind(JsonNode value) {
    return switch (value.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case OBJECT -> "an object";
      case ARRAY -> "an array";
      default -> value.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }

  /** A value as a message shows it: a number as sent (cut short), anything else by its kind. */
  public static String shown(JsonNode value) {
    if (!value.isNumber()) return kind(value);
    String text = value.toString();
    return text.length() > 40 ? text.substring(0, 37) + "..." : text;
  }

  /** A number as a double when it is one (91 as 91.0), as sent when it is past any double. */
  private static String shown(JsonNode value, @Nullable BigDecimal exact) {
    if (exact != null) {
      double d = exact.doubleValue();
      if (Double.isFinite(d)) return Double.toString(d);
    }
    return shown(value);
  }
}

package dev.tidings;

import java.util.Objects;

/**
 * One thing wrong with a request: how the edge answers it ({@link ErrorKind}), which rule it breaks, the
 * field it is about and the sentence that says so. The field is a path into the request as the client
 * sent it ({@code from}, {@code slots}, {@code audience.conditions[0].campaignId}) and empty when the
 * problem is about the whole request; a page that shows the request as a form finds its own field by
 * this path, so rewording a message never moves a problem to another field.
 */
public record Problem(ErrorKind kind, Rule rule, String field, String message) {
  /** Which kind of rule a value breaks; a form says each in words of its own. */
  public enum Rule {
    /** Nothing was given (or only blanks) where a value is required. */
    MISSING,
    /** A value of the wrong type, or not written as the field's format asks. */
    FORMAT,
    /** A value too small, too large, too long or too many. */
    RANGE,
    /** A name or an id that is not one of those Tidings knows. */
    UNKNOWN,
    /** Any other rule: one that involves more than the value's own form, or the request as a whole. */
    OTHER
  }

  public Problem {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  /** A rule the request as a whole breaks: no field of its own. */
  public static Problem of(String message) {
    return new Problem(ErrorKind.INVALID, Rule.OTHER, "", message);
  }

  public static Problem at(String field, Rule rule, String message) {
    return new Problem(ErrorKind.INVALID, rule, field, message);
  }

  public static Problem missing(String field) {
    return at(field, Rule.MISSING, "missing required field '" + field + "'");
  }

  public static Problem format(String field, String message) {
    return at(field, Rule.FORMAT, message);
  }

  public static Problem range(String field, String message) {
    return at(field, Rule.RANGE, message);
  }

  public static Problem unknown(String field, String message) {
    return at(field, Rule.UNKNOWN, message);
  }

  /**
   * The one wording of a value that should have been a number: {@code got} is what came instead, as a
   * message shows it (its JSON kind, or the text quoted).
   */
  public static Problem notANumber(String field, String got) {
    return format(field, field + " must be a number, got " + got);
  }

  /**
   * A number out of its range, or not a number at all: {@code range} says which numbers it takes
   * ("from 0 to 0.5"), {@code got} what came (empty when nothing did).
   */
  public static Problem notANumberIn(String field, Rule rule, String range, String got) {
    return at(
        field,
        rule,
        field + " must be a number " + range + (got.isEmpty() ? "" : " but was " + got));
  }

  /** Whether the problem names a field rather than the whole request. */
  public boolean located() {
    return !field.isEmpty();
  }

  /**
   * This problem as part of a larger value at {@code path}: its field goes under the path and its
   * message starts with it, as a client reads it ({@code sendTime.holdout must be ...}).
   */
  public Problem under(String path) {
    return new Problem(
        kind, rule, field.isEmpty() ? path : path + "." + field, path + "." + message);
  }

  /** Like {@link #under}, with the message led by {@code lead} instead ({@code "content 3: "}). */
  public Problem under(String path, String lead) {
    String under = path.isEmpty() ? field : field.isEmpty() ? path : path + "." + field;
    return new Problem(kind, rule, under, lead + message);
  }
}

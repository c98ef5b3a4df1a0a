package dev.tidings;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Collects what is wrong with one value object so that a row or request reports every problem at once.
 * The checks and their wording are shared by the domain records of every capability, so a CSV row, a JSON
 * line and an API request get the same messages.
 */
public final class Problems {
  private static final Pattern MISSING = Pattern.compile("missing required field '(.+)'");
  private final List<Problem> found = new ArrayList<>(2);

  /** A problem about the value as a whole, or one whose field only its sentence names. */
  public void add(String problem) {
    found.add(Problem.of(problem));
  }

  public void add(Problem problem) {
    found.add(problem);
  }

  /** What {@code inner} found in the part at {@code path}, each under that path. */
  public void addUnder(String path, Problems inner) {
    inner.found.forEach(problem -> found.add(problem.under(path)));
  }

  public boolean isEmpty() {
    return found.isEmpty();
  }

  /** The sentences alone, in order. */
  public List<String> list() {
    return found.stream().map(Problem::message).toList();
  }

  /** Every problem with its field path, in order. */
  public List<Problem> found() {
    return List.copyOf(found);
  }

  /** Throws when anything was found; the message lists every problem. */
  public void throwIfAny() {
    if (!found.isEmpty()) throw InvalidInputException.of(found);
  }

  public boolean present(String field, @Nullable Object value) {
    if (value == null) {
      missing(field);
      return false;
    }
    return true;
  }

  /**
   * Builds a domain record from a row whose values may have failed to parse (passed on as null), so that
   * one answer lists the record's own rule breaks too, not only the first stage's. A "missing required
   * field" for a field whose value was already reported as unreadable is left out: it says the same twice.
   */
  public <T> T build(Supplier<T> record) {
    T built;
    try {
      built = record.get();
    } catch (InvalidInputException fromRecord) {
      for (Problem problem : fromRecord.asProblems()) {
        if (!repeatsAReportedField(problem)) add(problem);
      }
      throwIfAny();
      throw fromRecord;
    } catch (RuntimeException unreadable) {
      // A value that failed to parse reached a record that does not expect it;
      // the parse problem says why.
      if (found.isEmpty()) throw unreadable;
      throwIfAny();
      throw unreadable;
    }
    throwIfAny();
    return built;
  }

  /**
   * Builds one element of a list (the third piece of an import, say), keeping what is wrong with it
   * beside the other elements' problems instead of stopping at the first: null when it broke a rule,
   * each of its problems then under {@code path} and its sentence led by {@code lead}.
   */
  public <T> @Nullable T element(String path, String lead, Supplier<T> build) {
    try {
      return build.get();
    } catch (InvalidInputException refused) {
      refused.asProblems().forEach(problem -> add(problem.under(path, lead)));
      return null;
    }
  }

  private boolean repeatsAReportedField(Problem problem) {
    if (problem.rule() != Problem.Rule.MISSING) return false;
    String field = problem.field();
    if (field.isEmpty()) {
      var missing = MISSING.matcher(problem.message());
      if (!missing.matches()) return false;
      field = missing.group(1);
    }
    for (Problem reported : found) {
      if (reported.field().equals(field)) return true;
      // a stage that reported without a field path names the field in its sentence
      String sentence = reported.message();
      if (!reported.located()
          && (sentence.startsWith(field + " ") || sentence.contains("'" + field + "'")))
        return true;
    }
    return false;
  }

  private void missing(String field) {
    add(Problem.missing(field));
  }

  /**
   * A required value as given, null included, for the constructor of a domain record: the records check their
   * own components (a null is reported as a missing field, with every other problem of the row), so a row
   * mapper hands them what it read instead of checking twice. The record never keeps the null: its
   * constructor throws {@link InvalidInputException}, so its components stay non-null for everyone else.
   */
  @SuppressWarnings(
      "NullAway") // the one place a null enters a non-null component: it is reported, not stored
  public static <T> T toValidate(@Nullable T value) {
    return value;
  }

  /** A required identifier: 1-64 chars of [A-Za-z0-9._:-]. */
  public void id(String field, @Nullable String value) {
    if (value == null) missing(field);
    else if (!isId(value))
      add(Problem.format(
          field, field + " must be 1-64 characters of A-Z a-z 0-9 . _ : -, got " + quote(value)));
  }

  /** 1-64 chars of [A-Za-z0-9._:-], checked by hand: a regex match per row was a visible cost of imports. */
  public static boolean isId(String value) {
    int length = value.length();
    if (length < 1 || length > 64) return false;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '.'
          || c == '_'
          || c == ':'
          || c == '-';
      if (!ok) return false;
    }
    return true;
  }

  public void requiredText(String field, @Nullable String value, int max) {
    if (value == null) missing(field);
    else text(field, value, max);
  }

  public void text(String field, String value, int max) {
    if (value.isEmpty()) add(Problem.at(field, Problem.Rule.MISSING, field + " must not be empty"));
    else if (value.length() > max)
      add(Problem.range(
          field, field + " must be at most " + max + " characters, got " + value.length()));
  }

  @SuppressWarnings(
      "NullableOptional") // the records check their own components, an Optional's null included
  public void optionalText(String field, @Nullable Optional<String> value, int max) {
    if (value == null) missing(field);
    else value.ifPresent(v -> text(field, v, max));
  }

  public void httpUrl(String field, @Nullable WebUrl value) {
    present(field, value);
  }

  public void nonNegative(String field, @Nullable BigDecimal value) {
    if (value == null) missing(field);
    else if (value.signum() < 0)
      add(Problem.range(field, field + " must be >= 0, got " + value.toPlainString()));
  }

  /** Checks an absolute http(s) URL, recording a problem (and returning null) when it is not one. */
  public @Nullable WebUrl parseUrl(String field, @Nullable String text) {
    if (text == null) return null;
    try {
      return new WebUrl(text); // checks once; the exception is for bad rows only
    } catch (IllegalArgumentException e) {
      add(Problem.format(
          field,
          field + " " + e.getMessage() + ", got "
              + quote(text.length() > 200 ? text.substring(0, 200) + "..." : text)));
      return null;
    }
  }

  /**
   * Checks one mailbox address ({@link EmailAddress}), recording a problem (and returning null) when it is
   * not one; else its normalised form, the one to store.
   */
  public @Nullable String parseEmail(String field, @Nullable String text) {
    if (text == null) {
      missing(field);
      return null;
    }
    return switch (EmailAddress.parse(text)) {
      case EmailAddress.Valid valid -> valid.address().value();
      case EmailAddress.Invalid invalid -> {
        add(Problem.format(
            field, field + " " + invalid.message() + ", got " + quote(printable(text))));
        yield null;
      }
    };
  }

  /** The text with control characters shown as U+FFFD, so a message never carries a line break or NUL. */
  public static String printable(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isISOControl(text.charAt(i))) {
        var out = new StringBuilder(text.length());
        text.chars().forEach(c -> out.append(Character.isISOControl(c) ? '\uFFFD' : (char) c));
        return out.toString();
      }
    }
    return text;
  }

  public static String quote(String value) {
    String shown = value.length() > 80 ? value.substring(0, 77) + "..." : value;
    return "'" + shown + "'";
  }

  public static String lower(String value) {
    return value.toLowerCase(Locale.ROOT);
  }
}

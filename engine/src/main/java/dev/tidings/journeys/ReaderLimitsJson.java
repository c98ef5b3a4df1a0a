package dev.tidings.journeys;

import dev.tidings.InvalidInputException;
import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the shop's reader limits as the API takes them: {@code {"perDay": 3, "perWeek": 10,
 * "quietHours": {"from": "21:00", "until": "08:00"}}}, every problem named by its field.
 */
public final class ReaderLimitsJson {
  private static final Set<String> FIELDS = Set.of("perDay", "perWeek", "quietHours");
  private static final Set<String> QUIET = Set.of("from", "until");

  private ReaderLimitsJson() {}

  public static ReaderLimits fromJson(JsonNode node) {
    if (!(node instanceof ObjectNode object))
      throw new InvalidInputException("reader limits must be a JSON object");
    var problems = new Problems();
    unknown(problems, object, "", FIELDS);
    Long perDay = JsonFields.whole(problems, object.get("perDay"), "perDay", 1, 100);
    Long perWeek = JsonFields.whole(problems, object.get("perWeek"), "perWeek", 1, 700);
    if (perDay == null && !JsonFields.given(object.get("perDay")))
      problems.add(Problem.missing("perDay"));
    if (perWeek == null && !JsonFields.given(object.get("perWeek")))
      problems.add(Problem.missing("perWeek"));
    if (perDay != null && perWeek != null && perWeek < perDay)
      problems.add(Problem.range("perWeek", "perWeek must be at least perDay (" + perDay + ")"));
    LocalTime from = null;
    LocalTime until = null;
    JsonNode quiet = object.get("quietHours");
    if (JsonFields.given(quiet)) {
      if (quiet instanceof ObjectNode hours) {
        unknown(problems, hours, "quietHours.", QUIET);
        from = time(problems, hours.get("from"), "quietHours.from");
        until = time(problems, hours.get("until"), "quietHours.until");
        if (from != null && from.equals(until))
          problems.add(Problem.range("quietHours.until", "quiet hours must end at another time"));
      } else
        problems.add(Problem.format(
            "quietHours", "quietHours is an object: {\"from\": \"21:00\", \"until\": \"08:00\"}"));
    }
    problems.throwIfAny();
    if (perDay == null || perWeek == null) throw new IllegalStateException("checked above");
    return new ReaderLimits(perDay.intValue(), perWeek.intValue(), from, until);
  }

  private static @Nullable LocalTime time(
      Problems problems, @Nullable JsonNode node, String where) {
    String text = JsonFields.string(problems, node, where);
    if (text == null) {
      if (!JsonFields.given(node)) problems.add(Problem.missing(where));
      return null;
    }
    try {
      return LocalTime.parse(text);
    } catch (DateTimeParseException e) {
      problems.add(Problem.format(where, where + " is a time of day such as 21:00"));
      return null;
    }
  }

  private static void unknown(
      Problems problems, ObjectNode object, String prefix, Set<String> known) {
    object.propertyNames().forEach(field -> {
      if (!known.contains(field))
        problems.add(Problem.unknown(
            prefix + field,
            "unknown field '" + prefix + field + "'; here: " + String.join(", ", known)));
    });
  }
}

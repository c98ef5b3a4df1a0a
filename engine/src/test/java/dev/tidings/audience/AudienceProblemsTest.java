package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.Problem.Rule;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A refused subscriber, follow or suppression names each field as the client sent it, with the rule
 * it breaks, and keeps its sentence.
 */
class AudienceProblemsTest {
  private static final InstantSource CLOCK =
      InstantSource.fixed(Instant.parse("2026-01-01T00:00:00Z"));

  private static List<Problem> refused(Runnable read) {
    return catchThrowableOfType(InvalidInputException.class, read::run).asProblems();
  }

  private static List<Problem> subscriber(String json) {
    return refused(() -> AudienceJson.subscriberFromJson(Json.MAPPER.readTree(json)));
  }

  @Test
  void an_unknown_field_of_a_subscriber_is_named() {
    // it stops the reading before the values are checked
    assertThat(subscriber("{\"id\": \"s1\", \"email\": \"a@example.com\", \"shoeSize\": 42}"))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("shoeSize", Rule.UNKNOWN));
  }

  @Test
  void each_bad_field_of_a_subscriber_is_named_with_its_rule() {
    assertThat(subscriber("""
            {"id": "s1", "email": "not an address", "timeZone": "Europe/Berlln",
             "consent": "maybe", "locale": "@@"}"""))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("email", Rule.FORMAT),
            tuple("timeZone", Rule.UNKNOWN),
            tuple("consent", Rule.UNKNOWN),
            tuple("locale", Rule.FORMAT));
  }

  @Test
  void a_time_zone_that_is_no_zone_name_at_all_is_a_format_problem() {
    assertThat(
            subscriber("{\"id\": \"s1\", \"email\": \"a@example.com\", \"timeZone\": \"+25:99\"}"))
        .singleElement()
        .satisfies(problem -> {
          assertThat(problem.field()).isEqualTo("timeZone");
          assertThat(problem.rule()).isEqualTo(Rule.FORMAT);
          assertThat(problem.message())
              .isEqualTo("timeZone must be an IANA time zone such as Europe/Berlin, got '+25:99'");
        });
  }

  @Test
  void a_latitude_without_a_longitude_names_the_one_missing() {
    assertThat(subscriber("{\"id\": \"s1\", \"email\": \"a@example.com\", \"latitude\": 48.2}"))
        .singleElement()
        .satisfies(problem -> {
          assertThat(problem.field()).isEqualTo("longitude");
          assertThat(problem.rule()).isEqualTo(Rule.MISSING);
          assertThat(problem.message())
              .isEqualTo("latitude and longitude go together: give both or neither");
        });
  }

  @Test
  void a_place_out_of_range_or_unknown_keeps_its_field_through_the_location() {
    assertThat(subscriber("""
            {"id": "s1", "email": "a@example.com", "latitude": 91, "longitude": 16.4}"""))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactly(
            tuple("latitude", Rule.RANGE, "latitude must be within -90..90, got 91.0"));
    assertThat(subscriber("{\"id\": \"s1\", \"email\": \"a@example.com\", \"country\": \"XX\"}"))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactly(tuple(
            "country",
            Rule.UNKNOWN,
            "country must be an ISO 3166-1 alpha-2 code such as DE, got 'XX'"));
    assertThat(subscriber("{\"id\": \"s1\", \"email\": \"a@example.com\", \"latitude\": \"north\","
            + " \"longitude\": 16.4}"))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("latitude", Rule.FORMAT));
  }

  @Test
  void a_market_code_and_a_name_with_a_line_break_are_named() {
    assertThat(subscriber("""
            {"id": "s1", "email": "a@example.com", "name": "Pat\\nSmith", "market": "gb"}"""))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(tuple("name", Rule.FORMAT), tuple("market", Rule.FORMAT));
  }

  @Test
  void a_follow_of_an_unknown_target_type_names_target_type() {
    assertThat(refused(() -> AudienceJson.followFromJson(
            Json.MAPPER.readTree(
                "{\"subscriberId\": \"s1\", \"targetType\": \"band\", \"targetId\": \"b1\"}"),
            CLOCK)))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("targetType", Rule.UNKNOWN));
  }

  @Test
  void each_bad_field_of_a_suppression_is_named_with_its_rule() {
    String body = """
        {"email": 7, "reason": "annoyed", "createdAt": "yesterday", "note": "x"}""";
    assertThat(refused(() -> AudienceJson.suppressionFromJson(Json.MAPPER.readTree(body), CLOCK)))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("note", Rule.UNKNOWN),
            tuple("email", Rule.FORMAT),
            tuple("reason", Rule.UNKNOWN),
            tuple("createdAt", Rule.FORMAT));
  }

  @Test
  void a_location_with_nothing_in_it_is_refused_as_missing() {
    assertThat(refused(() -> new Location(Optional.empty(), Optional.empty(), Optional.empty())))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("location", Rule.MISSING));
  }
}

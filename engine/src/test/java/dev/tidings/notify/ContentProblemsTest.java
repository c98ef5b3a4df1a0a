package dev.tidings.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.Problem.Rule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A refused piece of content names each field as the client sent it (an owner by its place in the
 * list), with the rule it breaks, and keeps its sentence.
 */
class ContentProblemsTest {
  private static List<Problem> refused(Runnable read) {
    return catchThrowableOfType(InvalidInputException.class, read::run).asProblems();
  }

  private static List<Problem> content(String json) {
    return refused(() -> ContentJson.fromJson("c1", Json.MAPPER.readTree(json)));
  }

  @Test
  void each_bad_field_of_content_is_named_with_its_rule() {
    assertThat(content("""
            {"id": "c2", "type": "poem", "title": "News", "colour": "red",
             "startsAt": "soon"}"""))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("colour", Rule.UNKNOWN),
            tuple("id", Rule.OTHER),
            tuple("type", Rule.UNKNOWN),
            tuple("startsAt", Rule.FORMAT));
    assertThat(content("{\"title\": \"News\"}"))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactly(tuple("type", Rule.MISSING, "missing required field 'type'"));
  }

  @Test
  void an_owner_is_named_by_its_place_in_the_list() {
    assertThat(content("""
            {"type": "article", "title": "News",
             "owners": [{"type": "brand", "id": "b1"}, {"type": "band", "id": "x"},
                        {"type": "artist", "id": ""}, "b2"]}"""))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactly(
            tuple(
                "owners[1].type",
                Rule.UNKNOWN,
                "owner 2: type must be brand, artist, gallery, store or category, got 'band'"),
            tuple("owners[2].id", Rule.MISSING, "owner 3: id must be 1-200 characters"),
            tuple("owners[3]", Rule.FORMAT, "owner 4 must be {\"type\", \"id\"}, got a string"));
  }

  @Test
  void a_location_that_is_no_point_and_an_end_before_the_start_are_named() {
    assertThat(content("""
            {"type": "event", "title": "Opening", "location": {"latitude": 48.2}}"""))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("location", Rule.FORMAT));
    assertThat(content("""
            {"type": "event", "title": "Opening", "startsAt": "2026-05-02T18:00:00Z",
             "endsAt": "2026-05-01T18:00:00Z"}"""))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactly(tuple("endsAt", Rule.RANGE, "endsAt must be after startsAt"));
    // a year PostgreSQL cannot store is refused by its field, not failed at the insert
    assertThat(content("""
            {"type": "event", "title": "Show", "endsAt": "+1000000000-01-01T00:00:00Z"}"""))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("endsAt", Rule.RANGE));
  }

  @Test
  void a_digest_note_without_a_subscriber_or_with_a_day_that_is_no_date_is_named() {
    assertThat(refused(() -> DigestNote.parse("{\"positions\": {}, \"told\": []}")))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("subscriber", Rule.MISSING));
    assertThat(refused(() -> DigestNote.parse(
            "{\"subscriber\": \"s1\", \"positions\": {\"Monday\": 1}, \"told\": []}")))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("positions", Rule.FORMAT));
  }
}

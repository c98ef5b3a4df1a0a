package dev.tidings.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.imports.Format;
import dev.tidings.storage.Database;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What every database behind {@link ActivityIntake}'s direct path must do. Batches hold three events, so
 * a request of a few events already spans several statements of one transaction.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class ActivityIntakeContract {
  private static final Instant NOW = Instant.parse("2026-03-01T09:00:00Z");
  private static final Instant AT = Instant.parse("2026-02-28T18:30:00Z");
  private static final int BATCH = 3;

  private Database database;
  private ActivityIntake intake;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    intake = new ActivityIntake(database.jdbi(), InstantSource.fixed(NOW), BATCH);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> {
      handle.execute("TRUNCATE activity_events");
      handle.execute("DROP TRIGGER IF EXISTS fail_on_boom ON activity_events");
    });
  }

  private static ActivityEvent view(String eventId, String userId) {
    return new ActivityEvent(
        Optional.of(eventId), userId, EventType.VIEW, "p-1", AT, 1, Optional.empty());
  }

  private static String line(String eventId) {
    return """
        {"userId":"u1","type":"view","itemId":"p-1","timestamp":"2026-02-28T18:30:00Z","eventId":"%s"}""".formatted(eventId);
  }

  private static InputStream lines(List<String> lines) {
    return new ByteArrayInputStream(
        (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> goodLines(int count) {
    return IntStream.rangeClosed(1, count).mapToObj(i -> line("ev-" + i)).toList();
  }

  private long stored() {
    return intake.count();
  }

  /** The user of the stored event with this id (which occurrence stayed). */
  private String userOf(String eventId) {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT user_id FROM activity_events WHERE event_id = :id")
            .bind("id", eventId)
            .mapTo(String.class)
            .one());
  }

  private void failInsertsOfItem(String itemId) {
    database.jdbi().useHandle(handle -> {
      handle.execute("""
          CREATE OR REPLACE FUNCTION fail_on_boom() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.item_id = '%s' THEN RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END $$""".formatted(itemId));
      handle.execute(
          "CREATE TRIGGER fail_on_boom BEFORE INSERT ON activity_events FOR EACH ROW EXECUTE FUNCTION fail_on_boom()");
    });
  }

  @Test
  void a_recorded_event_keeps_every_field() {
    var purchase = new ActivityEvent(
        Optional.of("ev-p"),
        "u7",
        EventType.ADD_TO_CART,
        "sku:42",
        AT,
        3,
        Optional.of(new BigDecimal("12.50")));
    var anonymous = new ActivityEvent(
        Optional.empty(), "u8", EventType.OPEN, "mail-1", AT, 1, Optional.empty());

    assertThat(intake.record(List.of(purchase, anonymous))).isEqualTo(new IntakeResult(2, 0));

    var rows = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("""
            SELECT coalesce(event_id, '-') || ' ' || user_id || ' ' || type || ' ' || item_id || ' ' || quantity
                   || ' ' || coalesce(price::text, '-') || ' ' || (occurred_at = :at) || ' ' || (received_at = :now)
              FROM activity_events ORDER BY user_id""")
            .bind("at", AT)
            .bind("now", NOW)
            .mapTo(String.class)
            .list());
    assertThat(rows)
        .containsExactly(
            "ev-p u7 add_to_cart sku:42 3 12.50 true true", "- u8 open mail-1 1 - true true");
  }

  @Test
  void an_event_id_repeated_in_one_request_is_stored_once_and_the_first_occurrence_stays() {
    var result = intake.record(List.of(
        view("ev-a", "first"),
        view("ev-b", "u1"),
        view("ev-a", "second"), // same batch as the first
        view("ev-c", "u1"),
        view("ev-d", "u1"),
        view("ev-b", "third"), // a later batch of the same transaction
        view("ev-a", "fourth")));

    assertThat(result).isEqualTo(new IntakeResult(4, 3));
    assertThat(stored()).isEqualTo(4);
    assertThat(userOf("ev-a")).isEqualTo("first");
    assertThat(userOf("ev-b")).isEqualTo("u1");
  }

  @Test
  void an_event_id_seen_in_an_earlier_request_is_a_duplicate() {
    intake.record(List.of(view("ev-a", "first"), view("ev-b", "u1")));

    var replay = intake.record(List.of(view("ev-b", "later"), view("ev-c", "u1")));

    assertThat(replay).isEqualTo(new IntakeResult(1, 1));
    assertThat(stored()).isEqualTo(3);
    assertThat(userOf("ev-b")).isEqualTo("u1");
    assertThat(intake.record(view("ev-c", "again"))).isFalse();
    assertThat(intake.record(view("ev-d", "u1"))).isTrue();
  }

  @Test
  void events_without_an_id_are_never_duplicates() {
    var same =
        new ActivityEvent(Optional.empty(), "u1", EventType.CLICK, "p-1", AT, 1, Optional.empty());

    assertThat(intake.record(List.of(same, same))).isEqualTo(new IntakeResult(2, 0));
    assertThat(intake.record(List.of(same))).isEqualTo(new IntakeResult(1, 0));
    assertThat(stored()).isEqualTo(3);
  }

  @Test
  void an_empty_request_stores_nothing() throws IOException {
    assertThat(intake.record(List.of())).isEqualTo(IntakeResult.NOTHING);
    assertThat(intake.recordLines(lines(List.of("", "  ")), Format.JSON_LINES))
        .isEqualTo(IntakeResult.NOTHING);
    assertThat(stored()).isZero();
  }

  @Test
  void a_database_failure_in_a_later_batch_stores_nothing_of_the_request() {
    failInsertsOfItem("boom");
    var events = new ArrayList<ActivityEvent>();
    for (int i = 1; i <= 7; i++) events.add(view("ev-" + i, "u1"));
    events.add(new ActivityEvent(
        Optional.of("ev-8"), "u1", EventType.VIEW, "boom", AT, 1, Optional.empty()));

    assertThatThrownBy(() -> intake.record(events)).hasMessageContaining("boom refused");
    assertThat(stored()).isZero();
  }

  @Test
  void json_lines_spanning_several_batches_are_stored_whole_with_their_replays_counted()
      throws IOException {
    var input = new ArrayList<>(goodLines(8));
    input.add(3, ""); // blank lines are skipped
    input.add(line("ev-1")); // a replay of the first batch's event, in the last batch
    input.add(line("ev-9"));

    var result = intake.recordLines(lines(input), Format.JSON_LINES);

    assertThat(result).isEqualTo(new IntakeResult(9, 1));
    assertThat(stored()).isEqualTo(9);
  }

  @Test
  void bad_lines_are_named_by_their_number_and_batches_written_before_them_are_rolled_back()
      throws IOException {
    var input = new ArrayList<>(goodLines(7)); // two full batches are written before line 8 is read
    input.add(line("ev-8").replace("\"view\"", "\"teleport\""));
    input.add("{\"userId\":");
    input.add(line("ev-10"));
    input.add(line("ev-11").replace("\"userId\":\"u1\",", ""));

    assertThatThrownBy(() -> intake.recordLines(lines(input), Format.JSON_LINES))
        .isInstanceOfSatisfying(InvalidInputException.class, invalid -> {
          assertThat(invalid.problems()).hasSize(3);
          assertThat(invalid.problems().get(0)).startsWith("line 8: type must be view, click");
          assertThat(invalid.problems().get(1)).startsWith("line 9: malformed JSON");
          assertThat(invalid.problems().get(2))
              .isEqualTo("line 11: missing required field 'userId'");
        });
    assertThat(stored()).isZero();
  }

  @Test
  void a_stream_that_fails_after_some_batches_were_written_stores_nothing() throws IOException {
    InputStream failing = new InputStream() {
      @Override
      public int read() throws IOException {
        throw new IOException("connection reset");
      }
    };
    var body = new SequenceInputStream(lines(goodLines(7)), failing);

    assertThatThrownBy(() -> intake.recordLines(body, Format.JSON_LINES))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("connection reset");
    assertThat(stored()).isZero();
    assertThat(intake.recordLines(lines(goodLines(7)), Format.JSON_LINES))
        .isEqualTo(new IntakeResult(7, 0));
  }

  @Test
  void only_the_first_thousand_bad_lines_are_listed_and_the_rest_counted() {
    var input = new ArrayList<String>();
    for (int i = 0; i < 1_005; i++) input.add("[]");

    assertThatThrownBy(() -> intake.recordLines(lines(input), Format.JSON_LINES))
        .isInstanceOfSatisfying(InvalidInputException.class, invalid -> {
          assertThat(invalid.problems()).hasSize(1_001);
          assertThat(invalid.problems().getFirst())
              .isEqualTo("line 1: expected a JSON object, got array");
          assertThat(invalid.problems().get(999)).startsWith("line 1000: ");
          assertThat(invalid.problems().getLast()).isEqualTo("and 5 more bad events");
        });
  }

  @Test
  void array_elements_are_read_once_and_every_bad_one_is_named_by_its_position() {
    var array = Json.MAPPER.readTree("""
        [%s,
         {"userId":"u1","type":"view","itemId":"p-1","timestamp":"yesterday"},
         "a string",
         %s,
         {"type":"view","itemId":"p-1","timestamp":"2026-02-28T18:30:00Z","quantity":0}]""".formatted(line("ev-1"), line("ev-4")));

    assertThatThrownBy(() -> intake.recordJson(array))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            invalid -> assertThat(invalid.problems())
                .containsExactly(
                    "event 2: timestamp must be an ISO-8601 instant such as 2024-05-01T12:00:00Z, got 'yesterday'",
                    "event 3: expected a JSON object, got string",
                    "event 5: missing required field 'userId'; quantity must be an integer >= 1, got 0"));
    assertThat(stored()).isZero();

    var good =
        Json.MAPPER.readTree("[%s, %s, %s]".formatted(line("ev-1"), line("ev-2"), line("ev-1")));
    assertThat(intake.recordJson(good)).isEqualTo(new IntakeResult(2, 1));
  }
}

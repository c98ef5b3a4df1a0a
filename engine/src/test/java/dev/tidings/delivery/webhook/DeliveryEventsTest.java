package dev.tidings.delivery.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.ReceiptSource;
import java.time.Instant;
import java.time.InstantSource;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryEventsTest {
  private static final InstantSource CLOCK =
      InstantSource.fixed(Instant.parse("2026-05-01T12:00:00Z"));

  @Test
  void utc_times_read_without_a_formatter_mean_what_the_formatter_reads() {
    for (String text : List.of(
        "2026-05-01T10:00:00Z",
        "2026-05-01T10:00:00.5Z",
        "2026-05-01T10:00:00.123Z",
        "2026-12-31T23:59:59.999999999Z",
        "2024-02-29T00:00:00Z",
        "0001-01-01T00:00:00Z"))
      assertThat(DeliveryEvents.utc(text))
          .as(text)
          .contains(OffsetDateTime.parse(text).toInstant());
    // other shapes, and impossible dates, are left to the formatter, which decides
    for (String text : List.of(
        "2026-05-01T10:00:00+02:00",
        "2026-05-01T10:00Z",
        "2026-05-01 10:00:00Z",
        "2026-05-01T10:00:00.Z",
        "2026-05-01T10:00:00.1234567890Z",
        "2026-02-30T10:00:00Z",
        "2026-05-01T24:00:00Z",
        "2026-05-01T10:00:60Z",
        "2026-05-0aT10:00:00Z",
        "2026-05-01t10:00:00z")) assertThat(DeliveryEvents.utc(text)).as(text).isEmpty();
  }

  @Test
  void valid_events_become_api_receipts_with_status_names_in_any_case() {
    var receipts = DeliveryEvents.parse(Json.MAPPER.readTree("""
        [{"messageId":"m-1","status":"Delivered","timestamp":"2026-05-01T10:00:00Z"},
         {"messageId":"m-2","status":"opened","timestamp":1777629600,"userAgent":"Mail/1.0"},
         {"messageId":"m-3","status":"BOUNCED","timestamp":"2026-05-01T12:00:00+02:00",
          "reason":"550 no such user"}]"""), CLOCK);
    assertThat(receipts).hasSize(3);
    assertThat(receipts.get(0).status()).isEqualTo(DeliveryStatus.DELIVERED);
    assertThat(receipts.get(0).source()).isEqualTo(ReceiptSource.API);
    assertThat(receipts.get(1).at()).isEqualTo(Instant.ofEpochSecond(1777629600L));
    assertThat(receipts.get(1).userAgent()).hasValue("Mail/1.0");
    assertThat(receipts.get(2).at()).isEqualTo(Instant.parse("2026-05-01T10:00:00Z"));
    assertThat(receipts.get(2).reason()).hasValue("550 no such user");
  }

  @Test
  void every_bad_element_is_named_by_its_index_and_what_is_wrong() {
    assertThatThrownBy(() -> DeliveryEvents.parse(Json.MAPPER.readTree("""
            [{"messageId":"m-1","status":"delivered","timestamp":"2026-05-01T10:00:00Z"},
             {"status":"read","timestamp":"yesterday"},
             7,
             {"messageId":"","status":"sent"}]"""), CLOCK))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            invalid -> assertThat(invalid.problems())
                .containsExactly(
                    "[1].messageId: missing",
                    "[1].status: 'read' is not a status (queued, in_gateway, deferred, sent, dropped,"
                        + " bounced, delivered, opened, clicked, unsubscribed, complained)",
                    "[1].timestamp: expected an ISO-8601 time with offset such as 2026-05-01T10:00:00Z,"
                        + " or unix seconds, but was \"yesterday\"",
                    "[2]: not a JSON object",
                    "[3].messageId: must be a non-empty string",
                    "[3].timestamp: missing"));
  }

  @Test
  void a_body_that_is_no_array_or_an_empty_one_is_refused() {
    assertThatThrownBy(() -> DeliveryEvents.parse(Json.MAPPER.readTree("{}"), CLOCK))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> DeliveryEvents.parse(Json.MAPPER.readTree("[]"), CLOCK))
        .hasMessageContaining("no events");
  }

  @Test
  void a_timestamp_beyond_any_calendar_is_a_problem_not_a_crash() {
    assertThatThrownBy(() -> DeliveryEvents.parse(
            Json.MAPPER.readTree(
                "[{\"messageId\":\"m\",\"status\":\"sent\",\"timestamp\":9223372036854775807}]"),
            CLOCK))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            invalid -> assertThat(invalid.problems())
                .singleElement()
                .satisfies(problem -> assertThat(problem).startsWith("[0].timestamp")));
  }

  @Test
  void how_far_ahead_an_event_may_be_is_measured_from_the_clock_it_is_given() throws Exception {
    var body = Json.MAPPER.readTree(
        "[{\"messageId\":\"m\",\"status\":\"sent\",\"timestamp\":\"2026-05-03T00:00:00Z\"}]");
    assertThatThrownBy(() -> DeliveryEvents.parse(body, CLOCK))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("[0].timestamp");
    assertThat(
            DeliveryEvents.parse(body, InstantSource.fixed(Instant.parse("2026-05-02T12:00:00Z"))))
        .singleElement()
        .satisfies(
            receipt -> assertThat(receipt.at()).isEqualTo(Instant.parse("2026-05-03T00:00:00Z")));
  }
}

package dev.tidings.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutboxRowTest {
  @Test
  void a_row_of_whole_events_gives_each_as_its_writer_wrote_it() {
    var row = new OutboxRow(7, """
        [{"id": "a1", "type": "dev.tidings.catalog.product_added", "subject": "p-1",
          "time": "2026-06-01T08:00:00.123456Z", "data": {"productId": "p-1", "time": "x"}},
         {"id": "a2", "type": "dev.tidings.catalog.back_in_stock", "subject": "p-2",
          "time": "2026-06-01T10:00:00.5+02:00", "data": {"productId": "p-2"}}]""");

    List<OutboxRow.Unplaced> events = row.expand();

    assertThat(events).extracting(OutboxRow.Unplaced::id).containsExactly("a1", "a2");
    assertThat(events)
        .extracting(OutboxRow.Unplaced::type)
        .containsExactly(CloudEventType.PRODUCT_ADDED, CloudEventType.BACK_IN_STOCK);
    assertThat(events)
        .extracting(OutboxRow.Unplaced::time)
        .containsExactly(
            Instant.parse("2026-06-01T08:00:00.123456Z"), Instant.parse("2026-06-01T08:00:00.5Z"));
    assertThat(events.getFirst().data())
        .isEqualTo(Json.MAPPER.readTree("{\"productId\": \"p-1\", \"time\": \"x\"}"));
  }

  @Test
  void a_batch_in_columns_gives_its_nth_values_as_the_nth_event_named_by_row_and_place() {
    var row = new OutboxRow(42, """
        {"type": "dev.tidings.delivery.opened", "subject": "subscriberId",
         "columns": {"messageId": ["m1", "m2"], "subscriberId": ["s1", "s2"],
                     "campaignId": [3, null],
                     "time": ["2026-06-01T08:00:00.1234567+00:00", "2026-06-01T09:30:00-01:00"]}}""");

    List<OutboxRow.Unplaced> events = row.expand();

    assertThat(events).extracting(OutboxRow.Unplaced::id).containsExactly("e42-1", "e42-2");
    assertThat(events).extracting(OutboxRow.Unplaced::subject).containsExactly("s1", "s2");
    // PostgreSQL keeps microseconds: a writer's finer time is rounded as it would be stored
    assertThat(events.getFirst().time()).isEqualTo(Instant.parse("2026-06-01T08:00:00.123457Z"));
    assertThat(events.getFirst().data()).isEqualTo(Json.MAPPER.readTree("""
            {"messageId": "m1", "subscriberId": "s1", "campaignId": 3,
             "time": "2026-06-01T08:00:00.123457Z"}"""));
    assertThat(events.get(1).data()).isEqualTo(Json.MAPPER.readTree("""
            {"messageId": "m2", "subscriberId": "s2", "campaignId": null,
             "time": "2026-06-01T10:30:00.000000Z"}"""));
  }

  @Test
  void a_row_no_writer_writes_is_refused_with_its_id() {
    assertThatThrownBy(() -> new OutboxRow(9, "[{\"type\": \"no.such.type\"}]").expand())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("outbox row 9")
        .hasMessageContaining("no.such.type");
    assertThatThrownBy(() -> new OutboxRow(10, "12").expand())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("outbox row 10");
  }
}

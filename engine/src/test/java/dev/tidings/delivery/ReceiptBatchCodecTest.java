package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.queue.Codec;
import dev.tidings.queue.UndecodableMessageException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReceiptBatchCodecTest {
  private static final ReceiptBatchCodec CODEC = new ReceiptBatchCodec();

  private static final Receipt FULL = new Receipt(
      "bWVzc2FnZS0x",
      DeliveryStatus.CLICKED,
      Instant.parse("2026-06-01T08:00:00.123Z"),
      ReceiptSource.SENDGRID,
      Optional.of("550 \"no such user\"\nsecond line \u00e9"),
      Optional.of("Mozilla/5.0 (Macintosh)"),
      Optional.of("203.0.113.7"),
      true,
      Optional.of("sg-event-1"),
      Optional.of(4));
  private static final Receipt BARE =
      Receipt.of("bWVzc2FnZS0y", DeliveryStatus.SENT, Instant.ofEpochMilli(0), ReceiptSource.SMTP);
  private static final ReceiptStore.Unknown UNKNOWN =
      new ReceiptStore.Unknown(ReceiptSource.MAILGUN, "stored", "{\"event\":\"stored\"}");

  @Test
  void every_field_survives_the_queue() {
    var batch = new ReceiptBatch(List.of(FULL, BARE), List.of(UNKNOWN));
    assertThat(CODEC.decode(CODEC.encode(batch))).isEqualTo(batch);
    var empty = new ReceiptBatch(List.of(), List.of());
    assertThat(CODEC.decode(CODEC.encode(empty))).isEqualTo(empty);
  }

  @Test
  void times_travel_as_epoch_milliseconds() {
    String body = new String(
        CODEC.encode(new ReceiptBatch(List.of(FULL), List.of())), StandardCharsets.UTF_8);
    assertThat(body).contains(Long.toString(FULL.at().toEpochMilli())).doesNotContain("2026-06");
  }

  @Test
  void messages_queued_in_the_object_form_are_still_read() {
    var batch = new ReceiptBatch(List.of(FULL, BARE), List.of(UNKNOWN));
    byte[] old = Codec.json(ReceiptBatch.class).encode(batch);
    assertThat(CODEC.decode(old)).isEqualTo(batch);
  }

  @Test
  void what_is_not_a_batch_is_undecodable() {
    for (String body : List.of(
        "[]",
        "{\"r\":[[\"id\",\"NOT_A_STATUS\",0,\"API\",null,null,null,false,null,null]]}",
        "{\"r\":[[\"id\",\"SENT\",0,\"API\",null,null,null,false,null,null,\"extra\"]]}",
        "{\"r\":[[1]]}",
        "{\"r\":{}}",
        "not json"))
      assertThatThrownBy(() -> CODEC.decode(body.getBytes(StandardCharsets.UTF_8)))
          .as(body)
          .isInstanceOf(UndecodableMessageException.class);
  }
}

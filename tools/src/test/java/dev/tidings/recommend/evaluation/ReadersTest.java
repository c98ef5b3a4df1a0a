package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadersTest {
  @TempDir
  Path dir;

  /** Hand-written lines in the Online Retail layout (made up, not copied from the data set). */
  private static final String RETAIL = """
      InvoiceNo,StockCode,Description,Quantity,InvoiceDate,UnitPrice,CustomerID,Country
      500001,10001A,"MUG, BLUE",6,2011-01-02 10:15:00,1.25,10001.0,United Kingdom
      500001,10002,PLATE,2,2011-01-02 10:15:00,2.10,10001.0,United Kingdom
      500001,POST,POSTAGE,1,2011-01-02 10:15:00,18.00,10001.0,United Kingdom
      C500002,10001A,"MUG, BLUE",-6,2011-01-03 09:00:00,1.25,10001.0,United Kingdom
      500003,10002,PLATE,4,2011-01-04 11:00:00,2.10,,United Kingdom
      500004,10003,BOWL,-1,2011-01-05 12:00:00,0.00,10002.0,France
      500005,gift_0001_10,VOUCHER,1,2011-01-06 12:00:00,10.00,10002.0,France
      500006,10003,BOWL,3,2011-01-07 12:30:00,3.00,10002.0,France
      """;

  @Test
  void the_online_retail_reader_keeps_real_purchases_of_known_customers() throws IOException {
    var builder = new Interactions.Builder();
    var report = OnlineRetailReader.read(
        new ByteArrayInputStream(RETAIL.getBytes(StandardCharsets.UTF_8)), builder, done -> {});
    Interactions rows = builder.build();

    assertThat(report.linesRead()).isEqualTo(8);
    assertThat(report.rowsKept()).isEqualTo(3);
    assertThat(report.droppedByReason())
        .containsEntry(OnlineRetailReader.CANCELLATION, 1L)
        .containsEntry(OnlineRetailReader.GUEST, 1L)
        .containsEntry(OnlineRetailReader.NON_POSITIVE_QUANTITY, 1L)
        .containsEntry(OnlineRetailReader.NON_PRODUCT, 2L);
    assertThat(rows.userCount()).isEqualTo(2);
    assertThat(rows.userId(0)).isEqualTo("10001");
    assertThat(rows.itemId(0)).isEqualTo("10001A");
    assertThat(rows.quantity(0)).isEqualTo(6);
    assertThat(rows.basket(0)).isEqualTo(rows.basket(1));
    assertThat(rows.basket(2)).isNotEqualTo(rows.basket(0));
    assertThat(rows.epochSecond(0)).isEqualTo(1_293_963_300L); // 2011-01-02T10:15:00Z
  }

  @Test
  void the_events_reader_counts_purchases_and_carts_once_per_event_id() throws IOException {
    Path file = Files.writeString(dir.resolve("events.jsonl"), """
        {"userId":"u1","type":"purchase","itemId":"a","timestamp":"2025-01-01T10:00:00Z","eventId":"e1"}
        {"userId":"u1","type":"purchase","itemId":"a","timestamp":"2025-01-01T10:00:00Z","eventId":"e1"}
        {"userId":"u1","type":"view","itemId":"b","timestamp":"2025-01-01T10:00:00Z"}
        {"userId":"u1","type":"add_to_cart","itemId":"c","timestamp":"2025-01-02T10:00:00Z","quantity":2}
        """);
    var builder = new Interactions.Builder();
    var report = EventsReader.read(file, builder, done -> {});
    Interactions rows = builder.build();
    assertThat(report.rowsKept()).isEqualTo(2);
    assertThat(report.droppedByReason())
        .containsEntry(EventsReader.REPLAY, 1L)
        .containsEntry(EventsReader.NOT_A_PURCHASE, 1L);
    assertThat(rows.quantity(1)).isEqualTo(2);
    assertThat(rows.basket(0)).isNotEqualTo(rows.basket(1));
  }

  @Test
  void the_events_reader_takes_snake_case_csv_and_groups_by_session() throws IOException {
    Path file = Files.writeString(dir.resolve("events.csv"), """
        user_id,type,item_id,timestamp,session_id
        u1,purchase,a,2025-01-01T10:00:00Z,s1
        u1,purchase,b,2025-01-01T10:05:00Z,s1
        u1,purchase,c,2025-01-03T10:00:00Z,
        """);
    var builder = new Interactions.Builder();
    EventsReader.read(file, builder, done -> {});
    Interactions rows = builder.build();
    assertThat(rows.size()).isEqualTo(3);
    assertThat(rows.basket(0)).isEqualTo(rows.basket(1));
    assertThat(rows.basket(2)).isNotEqualTo(rows.basket(0));
  }

  @Test
  void a_bad_event_line_names_its_line() throws IOException {
    Path file = Files.writeString(dir.resolve("bad.jsonl"), """
        {"userId":"u1","type":"purchase","itemId":"a","timestamp":"2025-01-01T10:00:00Z"}
        {"userId":"u1","type":"purchase","timestamp":"2025-01-01T10:00:00Z"}
        """);
    assertThatThrownBy(() -> EventsReader.read(file, new Interactions.Builder(), done -> {}))
        .hasMessageContaining("line 2")
        .hasMessageContaining("itemId");
  }
}

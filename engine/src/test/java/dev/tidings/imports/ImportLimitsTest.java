package dev.tidings.imports;

import static dev.tidings.testing.HostileContent.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.testing.HostileContent;
import dev.tidings.testing.HostileContent.Fill;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The limits of {@link ImportLimits} where they meet real files: what is within them reads as before,
 * what is past them is refused with its line. The huge files are {@link HostileInputTest}'s.
 */
class ImportLimitsTest {
  private static final RowSchema SCHEMA = HostileInputProbe.SCHEMA;
  private static final String RSS = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
      <channel>
      """;
  private static final String RSS_END = "</channel>\n</rss>\n";

  /** One row as read: its line, its id and description, and its problem. */
  record Row(
      long line,
      @Nullable String id,
      @Nullable String description,
      @Nullable String problem) {}

  private static List<Row> rows(InputStream in, Format format) throws IOException {
    var rows = new ArrayList<Row>();
    try (RowSource source = BulkImporter.open(in, format, SCHEMA)) {
      var fields = new RowFields(SCHEMA);
      while (BulkImporter.next(source, fields, rows.size())) {
        rows.add(new Row(source.line(), fields.text(0), fields.text(2), source.problem()));
      }
    }
    return rows;
  }

  private static List<Row> rows(String content, Format format) throws IOException {
    return rows(new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), format);
  }

  private static String item(String id, String description) {
    return "<item><g:id>" + id + "</g:id><g:description>" + description
        + "</g:description></item>\n";
  }

  @Test
  void xml_text_read_in_chunks_is_whole_with_its_entities_and_cdata() throws IOException {
    String long1 = "a".repeat(40_000) + " &amp; " + "b".repeat(20_000);
    String cdata = "<![CDATA[" + "<c>".repeat(5_000) + "]]>" + "d".repeat(10_000);

    List<Row> rows = rows(RSS + item("1", long1) + item("2", cdata) + RSS_END, Format.FEED_XML);

    assertThat(rows).extracting(Row::problem).containsOnlyNulls();
    assertThat(rows.get(0).description())
        .isEqualTo("a".repeat(40_000) + " & " + "b".repeat(20_000));
    assertThat(rows.get(1).description()).isEqualTo("<c>".repeat(5_000) + "d".repeat(10_000));
  }

  @Test
  void an_xml_value_past_the_field_limit_is_its_row_problem_and_the_next_item_is_read()
      throws IOException {
    String tooLong = "x".repeat(ImportLimits.MAX_FIELD_CHARS + 1);

    List<Row> rows = rows(RSS + item("1", tooLong) + item("2", "fine") + RSS_END, Format.FEED_XML);

    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).problem()).isEqualTo("description is longer than 65536 characters");
    assertThat(rows.get(1)).isEqualTo(new Row(5, "2", "fine", null));
  }

  @Test
  void white_space_between_many_items_is_no_run_of_text_past_the_limit() throws IOException {
    var feed = new StringBuilder(RSS);
    int items = 20_000;
    for (int i = 0; i < items; i++) feed.append(" ".repeat(40)).append(item("i" + i, "d"));
    feed.append(RSS_END);
    assertThat(items * 40).isGreaterThan(ImportLimits.MAX_RECORD_CHARS);

    List<Row> rows = rows(feed.toString(), Format.FEED_XML);

    assertThat(rows).hasSize(items);
    assertThat(rows).extracting(Row::problem).containsOnlyNulls();
  }

  @Test
  void a_comment_under_the_event_limit_is_read_past_and_one_over_it_refuses_the_file()
      throws IOException {
    String under = "<!--" + "c".repeat(900 * 1024) + "-->\n";
    assertThat(rows(RSS + under + item("1", "d") + RSS_END, Format.FEED_XML))
        .extracting(Row::id)
        .containsExactly("1");

    // the parser reads a few KiB ahead of the event it is on: the limit holds to within that
    String over = "<!--" + "c".repeat(ImportLimits.MAX_XML_EVENT_BYTES + 64 * 1024) + "-->\n";
    assertThatThrownBy(() -> rows(RSS + item("1", "d") + over + RSS_END, Format.FEED_XML))
        .isInstanceOfSatisfying(
            MalformedFileException.class,
            e -> assertThat(e.reason())
                .isEqualTo("the XML at line 5 has a tag, comment, CDATA section or processing"
                    + " instruction longer than 1048576 bytes: the file is refused"));
  }

  @Test
  void a_run_of_text_outside_any_item_past_the_limit_refuses_the_file() throws IOException {
    String text = "t".repeat(ImportLimits.MAX_RECORD_CHARS + 1);

    assertThatThrownBy(() -> rows(RSS + item("1", "d") + text + RSS_END, Format.FEED_XML))
        .isInstanceOfSatisfying(MalformedFileException.class, e -> {
          assertThat(e.line()).isEqualTo(4);
          assertThat(e.reason())
              .isEqualTo(
                  "the text at line 4 is longer than 262144 characters: the file is refused");
        });
  }

  @Test
  void gzip_as_repetitive_as_real_data_is_read_past_the_unchecked_bytes() throws IOException {
    // 24 MiB of description that compresses some 40 times, in JSON lines of 60 KiB each
    var lines = new StringBuilder();
    String text = new String(
        HostileContent.generated("", Fill.TEXT, 60 * 1024, "").readAllBytes(),
        StandardCharsets.US_ASCII);
    int count = 24 * MIB / text.length();
    for (int i = 0; i < count; i++)
      lines
          .append("{\"id\":\"")
          .append(i)
          .append("\",\"description\":\"")
          .append(text)
          .append("\"}\n");
    byte[] gzipped = gzip(lines.toString().getBytes(StandardCharsets.US_ASCII));
    assertThat((long) lines.length()).isGreaterThan(ImportLimits.GZIP_UNCHECKED_BYTES);
    assertThat(lines.length() / gzipped.length).isBetween(20, ImportLimits.MAX_GZIP_EXPANSION);

    List<Row> rows = rows(new ByteArrayInputStream(gzipped), Format.JSON_LINES);

    assertThat(rows).hasSize(count);
    assertThat(rows).extracting(Row::problem).containsOnlyNulls();
  }

  @Test
  void a_small_gzip_is_read_however_much_it_expands() throws IOException {
    byte[] gzipped =
        gzip(("id,title\n" + "\n".repeat(8 * MIB) + "1,one\n").getBytes(StandardCharsets.US_ASCII));
    assertThat(8 * MIB / gzipped.length).isGreaterThan(ImportLimits.MAX_GZIP_EXPANSION);

    assertThat(rows(new ByteArrayInputStream(gzipped), Format.CSV))
        .extracting(Row::id)
        .containsExactly("1");
  }

  @Test
  void a_gzip_that_expands_like_a_bomb_is_refused_past_the_unchecked_bytes() throws IOException {
    byte[] bomb = HostileContent.gzipMembers("id,title\n1,one\n", Fill.LINE_BREAKS, 64, "");

    assertThatThrownBy(() -> rows(new ByteArrayInputStream(bomb), Format.CSV))
        .isInstanceOfSatisfying(
            MalformedFileException.class,
            e -> assertThat(e.reason())
                .startsWith("the gzip expands more than 100 times (")
                .contains(" compressed): refused as a compression bomb (after data row "));
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    var out = new ByteArrayOutputStream();
    try (var zipped = new GZIPOutputStream(out)) {
      zipped.write(bytes);
    }
    return out.toByteArray();
  }
}

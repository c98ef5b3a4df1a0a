package dev.tidings.imports;

import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.TEXT;
import static dev.tidings.testing.HostileContent.MIB;

import dev.tidings.testing.HostileContent;
import dev.tidings.testing.HostileContent.Fill;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Reads one hostile file through the import's own reading path ({@link BulkImporter#open} and {@link
 * BulkImporter#next}, as every import does) and prints what came of it: run in a JVM of its own with a
 * small heap, it shows that the file is refused, not held. Exit status 0 when the reading ended (refused
 * or not); a JVM out of memory ends with its own status instead.
 */
final class HostileInputProbe {
  static final RowSchema SCHEMA =
      RowSchema.of(required("id", TEXT), optional("title", TEXT), optional("description", TEXT));

  /** Bytes of the huge part of each plain file: far past any limit, and past the heap. */
  static final long HUGE = 600L * MIB;

  /** An RSS feed up to an item's description, which starts on line 6. */
  static final String RSS_TO_DESCRIPTION = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
      <channel>
      <item>
      <g:id>1</g:id>
      <g:description>""";

  static final String RSS_END = "</g:description>\n</item>\n</channel>\n</rss>\n";

  enum Scenario {
    XML_TEXT(
        Format.FEED_XML,
        () -> HostileContent.generated(RSS_TO_DESCRIPTION, Fill.TEXT, HUGE, RSS_END)),
    XML_CDATA(
        Format.FEED_XML,
        () -> HostileContent.generated(
            RSS_TO_DESCRIPTION + "<![CDATA[", Fill.TEXT, HUGE, "]]>" + RSS_END)),
    XML_COMMENT(
        Format.FEED_XML,
        () -> HostileContent.generated(
            RSS_TO_DESCRIPTION + "<!--", Fill.TEXT, HUGE, "-->" + RSS_END)),
    XML_ATTRIBUTE(
        Format.FEED_XML,
        () -> HostileContent.generated(
            RSS_TO_DESCRIPTION + "<g:note value=\"", Fill.TEXT, HUGE, "\"/>" + RSS_END)),
    XML_PROCESSING_INSTRUCTION(
        Format.FEED_XML,
        () -> HostileContent.generated(
            RSS_TO_DESCRIPTION + "<?note ", Fill.TEXT, HUGE, "?>" + RSS_END)),
    XML_BOMB(
        Format.FEED_XML,
        () -> gzipped(HostileContent.gzipMembers(
            "<rss version=\"2.0\">\n<channel>\n",
            Fill.EMPTY_ELEMENTS,
            4096,
            "</channel>\n</rss>\n"))),
    TSV_BOMB(Format.FEED_TSV, () -> gzipped(HostileContent.gzipBomb("id\ttitle\n"))),
    CSV_BOMB(Format.CSV, () -> gzipped(HostileContent.gzipBomb("id,title\n"))),
    JSON_LINES_BOMB(Format.JSON_LINES, () -> gzipped(HostileContent.gzipBomb(""))),
    TSV_LINE(
        Format.FEED_TSV, () -> HostileContent.generated("id\ttitle\n1\t", Fill.TEXT, HUGE, "\n")),
    CSV_LINE(Format.CSV, () -> HostileContent.generated("id,title\n1,", Fill.TEXT, HUGE, "\n")),
    CSV_QUOTED_LINE(
        Format.CSV, () -> HostileContent.generated("id,title\n1,\"", Fill.TEXT, HUGE, "\"\n")),
    JSON_LINES_LINE(
        Format.JSON_LINES,
        () -> HostileContent.generated("{\"id\":\"1\",\"title\":\"", Fill.TEXT, HUGE, "\"}\n"));

    final Format format;
    final Supplier<InputStream> content;

    Scenario(Format format, Supplier<InputStream> content) {
      this.format = format;
      this.content = content;
    }
  }

  private static InputStream gzipped(byte[] bytes) {
    return new ByteArrayInputStream(bytes);
  }

  public static void main(String[] args) throws Exception {
    var scenario = Scenario.valueOf(args[0].toUpperCase(Locale.ROOT));
    long rows = 0;
    try (RowSource source = BulkImporter.open(scenario.content.get(), scenario.format, SCHEMA)) {
      var fields = new RowFields(SCHEMA);
      while (BulkImporter.next(source, fields, rows)) {
        rows++;
        if (source.problem() != null)
          System.out.println("row at line " + source.line() + " refused: " + source.problem());
      }
      System.out.println("read " + rows + " rows");
    } catch (MalformedFileException e) {
      System.out.println("file refused at line " + e.line() + ": " + e.reason());
    }
    System.exit(0);
  }
}

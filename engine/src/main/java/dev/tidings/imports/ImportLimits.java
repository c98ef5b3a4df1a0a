package dev.tidings.imports;

import dev.tidings.Json;

/**
 * Bounds that keep a hostile or broken file from exhausting the heap: no value, line or header may
 * grow without limit, whatever the file size. Each is counted as the bytes or characters arrive, so it
 * holds before the memory is spent, not after.
 */
final class ImportLimits {
  /** Longest single value (a CSV cell, a JSON string, an XML element's text kept), in characters. */
  static final int MAX_FIELD_CHARS = Json.MAX_STRING_CHARS;
  /** Longest JSON line, CSV or tab-separated record, or run of text in an XML feed, in characters. */
  static final int MAX_RECORD_CHARS = 256 * 1024;
  /**
   * Most bytes the XML parser may read for one event (a tag with its attributes, a comment, a CDATA
   * section, a processing instruction: the JDK's parser holds each whole). The longest a real one needs
   * is a value of {@link #MAX_FIELD_CHARS} written as character references ({@code &#65535;}, 8 bytes a
   * character: 512 KiB) and the parser's read-ahead of a few KiB.
   */
  static final int MAX_XML_EVENT_BYTES = 1024 * 1024;
  /**
   * Most times the content of a gzip-compressed import may be larger than the compressed bytes read so
   * far. Real feeds and exports compress 5 to 20 times, the most repetitive ones some 50; deflate cannot
   * go past about 1,030, and a compression bomb comes close to that.
   */
  static final int MAX_GZIP_EXPANSION = 100;
  /**
   * Gunzipped bytes before {@link #MAX_GZIP_EXPANSION} is checked: a small file may be very repetitive
   * (a header and a few rows alike) and costs nothing to read whatever its ratio.
   */
  static final long GZIP_UNCHECKED_BYTES = 16L * 1024 * 1024;
  /** Most columns a CSV header may have (every format has far fewer fields). */
  static final int MAX_COLUMNS = 64;
  /** Most row errors kept in a report; the rest are counted only. */
  static final int MAX_REPORTED_ERRORS = 1000;
  /** Rows between two progress callbacks. */
  static final int PROGRESS_EVERY = 10_000;

  private ImportLimits() {}
}

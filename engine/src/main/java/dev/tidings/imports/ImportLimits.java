package dev.tidings.imports;

/**
 * Bounds that keep a hostile or broken file from exhausting the heap: no value, line or header may
 * grow without limit, whatever the file size.
 */
final class ImportLimits {
  /** Longest single value (a CSV cell, a JSON string), in characters. */
  static final int MAX_FIELD_CHARS = dev.tidings.Json.MAX_STRING_CHARS;
  /** Longest JSON line or CSV record, in characters. */
  static final int MAX_RECORD_CHARS = 256 * 1024;
  /** Most columns a CSV header may have (every format has far fewer fields). */
  static final int MAX_COLUMNS = 64;
  /** Most row errors kept in a report; the rest are counted only. */
  static final int MAX_REPORTED_ERRORS = 1000;
  /** Rows between two progress callbacks. */
  static final int PROGRESS_EVERY = 10_000;

  private ImportLimits() {}
}

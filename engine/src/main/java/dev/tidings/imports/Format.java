package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import dev.tidings.Problems;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The import formats; gzip compression is recognised from the content itself, in all. The two feed formats
 * are those of Google Merchant Center product feeds (docs/feeds.md): RSS 2.0 or Atom 1.0 with the {@code g:}
 * namespace, and tab-separated text with a header row of attribute names. A feed names attributes its own
 * way and carries many that Tidings does not use, so its sources ignore unknown attributes, and a kind reads
 * a feed only through a row mapper made for it.
 */
public enum Format {
  CSV,
  JSON_LINES,
  /** An RSS 2.0 or Atom 1.0 product feed: one row per {@code item} or {@code entry}. */
  FEED_XML,
  /** A tab-separated product feed: a header row of attribute names, one row per line. */
  FEED_TSV;

  /** Whether this is a product feed format (attribute names of the feed, unknown ones ignored). */
  public boolean isFeed() {
    return this == FEED_XML || this == FEED_TSV;
  }

  /** By extension: .csv, .jsonl, .ndjson, each optionally followed by .gz. */
  static Format ofFileName(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) name = name.substring(0, name.length() - 3);
    if (name.endsWith(".csv")) return CSV;
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) return JSON_LINES;
    throw new InvalidInputException("cannot tell the format of " + fileName
        + ": expected .csv, .jsonl or .ndjson (optionally .gz)");
  }

  public static Format of(Path file) {
    return ofFileName(String.valueOf(file.getFileName()));
  }

  /**
   * A products file's format: by its extension when it has one of CSV's or JSON Lines' (as {@link #of}),
   * otherwise told from its content, which must then be a product feed (XML, or tab-separated text whose
   * header names {@code id} or {@code title}); gzip either way.
   *
   * @throws InvalidInputException when it is neither
   * @throws ImportFailedException when the file cannot be read
   */
  public static Format detect(Path file) {
    try {
      return of(file);
    } catch (InvalidInputException byName) {
      Format sniffed = FormatSniffer.of(file);
      if (sniffed.isFeed()) return sniffed;
      throw new InvalidInputException("cannot tell the format of " + file.getFileName()
          + ": expected .csv, .jsonl or .ndjson (optionally .gz), or a product feed (XML, or"
          + " tab-separated text whose header names id and title)");
    }
  }

  /** The format of fetched content, told from its first bytes (see {@link #detect(Path)}). */
  public static Format detect(byte[] content) {
    return FormatSniffer.of(content);
  }

  /** By media type: text/csv, application/x-ndjson, application/jsonl (parameters ignored). */
  public static Format ofContentType(String contentType) {
    String type = contentType.toLowerCase(Locale.ROOT);
    int semicolon = type.indexOf(';');
    if (semicolon >= 0) type = type.substring(0, semicolon);
    return switch (type.strip()) {
      case "text/csv" -> CSV;
      case "application/x-ndjson",
          "application/jsonl",
          "application/x-jsonlines",
          "application/jsonlines" -> JSON_LINES;
      default ->
        throw new InvalidInputException("unsupported content type " + Problems.quote(contentType)
            + ": expected text/csv, application/x-ndjson or application/jsonl");
    };
  }
}

package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import dev.tidings.Problems;
import java.nio.file.Path;
import java.util.Locale;

/** The two import formats; gzip compression is recognised from the content itself, in both. */
public enum Format {
  CSV,
  JSON_LINES;

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

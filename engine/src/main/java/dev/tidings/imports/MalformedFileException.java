package dev.tidings.imports;

import dev.tidings.TidingsException;

/** The file as a whole cannot be read as its format (no header, unknown column, broken quoting); nothing is imported. */
final class MalformedFileException extends TidingsException {
  private final long line;
  private final String reason;

  MalformedFileException(long line, String reason) {
    super(reason);
    this.line = line;
    this.reason = reason;
  }

  /** What is wrong with the file (the message; never null, unlike {@link #getMessage()} in general). */
  String reason() {
    return reason;
  }

  long line() {
    return line;
  }
}

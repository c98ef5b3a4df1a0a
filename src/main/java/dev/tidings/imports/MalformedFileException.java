package dev.tidings.imports;

import dev.tidings.TidingsException;

/** The file as a whole cannot be read as its format (no header, unknown column, broken quoting); nothing is imported. */
final class MalformedFileException extends TidingsException {
  private final long line;

  MalformedFileException(long line, String message) {
    super(message);
    this.line = line;
  }

  long line() {
    return line;
  }
}

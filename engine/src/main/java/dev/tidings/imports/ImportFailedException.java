package dev.tidings.imports;

import dev.tidings.TidingsException;

/** An import that could not run to the end (I/O or database failure); it was rolled back, nothing was imported. */
public final class ImportFailedException extends TidingsException {
  ImportFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}

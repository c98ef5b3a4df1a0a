package dev.tidings.fuzz;

import dev.tidings.imports.Format;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Every row of a fuzzed import file through the import's own reading path (decoding, gzip, byte order
 * mark, CSV header or JSON Lines, then the kind's row mapper), as an import or the event intake reads it.
 * A refused row or file is an answer, not an exception; the mapper's InvalidInputException is caught by
 * the reader itself, so whatever escapes here is for the caller's property to judge.
 */
public final class ImportRows {
  /** Rows read from one file at most: the fuzzer's inputs are small, this only bounds a runaway reader. */
  private static final int MAX_ROWS = 100_000;

  private ImportRows() {}

  public static <T> int readAll(byte[] data, Format format, RowMapper<T> mapper)
      throws IOException {
    int rows = 0;
    try (var reader = RowReader.of(new ByteArrayInputStream(data), format, mapper)) {
      while (reader.next() != null && rows < MAX_ROWS) rows++;
    }
    return rows;
  }
}

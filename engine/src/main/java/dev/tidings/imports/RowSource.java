package dev.tidings.imports;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/** Rows of one file, read one at a time into a reused {@link RowFields}. */
sealed interface RowSource extends AutoCloseable
    permits CsvRowSource, JsonLinesRowSource, TsvFeedRowSource, XmlFeedRowSource {
  /**
   * Reads the next row into {@code fields}; false at the end of the file. After true, {@link #line()} is
   * where the row starts and {@link #problem()} says why its shape is wrong, if it is.
   *
   * @throws MalformedFileException when the file cannot be read further as its format
   */
  boolean next(RowFields fields) throws IOException;

  long line();

  @Nullable String problem();

  @Override
  void close() throws IOException;
}

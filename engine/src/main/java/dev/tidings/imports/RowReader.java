package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;

/**
 * The rows of a CSV or JSON Lines stream one at a time, each mapped to its record or refused with the
 * reason, for callers that store records themselves instead of through {@link BulkImporter}'s staging
 * (the activity intake). Decoding (gzip, byte order mark, strict UTF-8), limits and messages are an
 * import's, so a row gets the same answer either way.
 */
public final class RowReader<T> implements AutoCloseable {
  /** One row of the stream; {@code line} is where it starts. */
  public sealed interface Row<T> {
    long line();
  }

  public record Valid<T>(long line, T value) implements Row<T> {}

  /** A row without a record: what is wrong with it (every problem, joined), or why the stream ends here. */
  public record Invalid<T>(long line, String problem) implements Row<T> {}

  private final InputStream in;
  private final Format format;
  private final RowMapper<T> mapper;
  private final RowFields fields;
  private @Nullable RowSource source;
  private long read;
  private boolean ended;

  private RowReader(InputStream in, Format format, RowMapper<T> mapper) {
    this.in = in;
    this.format = format;
    this.mapper = mapper;
    this.fields = new RowFields(mapper.schema());
  }

  public static <T> RowReader<T> of(InputStream in, Format format, RowMapper<T> mapper) {
    return new RowReader<>(in, format, mapper);
  }

  /**
   * The next row, or null after the last. A stream that cannot be read further as its format (not UTF-8, a
   * CSV header naming an unknown column) ends with an {@link Invalid} row that says why.
   */
  public @Nullable Row<T> next() throws IOException {
    if (ended) return null;
    try {
      RowSource rows = source();
      if (!BulkImporter.next(rows, fields, read)) {
        ended = true;
        return null;
      }
      read++;
      String problem = rows.problem();
      if (problem != null) return new Invalid<>(rows.line(), problem);
      try {
        return new Valid<>(rows.line(), mapper.map(fields));
      } catch (InvalidInputException e) {
        return new Invalid<>(rows.line(), String.join("; ", e.problems()));
      }
    } catch (MalformedFileException e) {
      ended = true;
      return new Invalid<>(e.line(), e.reason());
    }
  }

  /** Opened on the first row, so that a malformed CSV header is reported like every other refusal. */
  private RowSource source() throws IOException {
    if (source == null) source = BulkImporter.open(in, format, mapper.schema());
    return source;
  }

  @Override
  public void close() throws IOException {
    if (source != null) source.close();
    else in.close();
  }
}

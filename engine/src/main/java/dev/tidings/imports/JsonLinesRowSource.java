package dev.tidings.imports;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.StoredText;
import java.io.IOException;
import java.io.Reader;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * JSON Lines: one object per line, blank lines skipped. A line is read with a bound on its length, so a
 * file without line breaks cannot fill the heap; a broken line is a bad row, not a broken file.
 */
final class JsonLinesRowSource implements RowSource {
  private final Reader reader;
  private final char[] buffer = new char[64 * 1024];
  private final StringBuilder current = new StringBuilder(1024);
  private int position;
  private int limit;
  private long lineNumber;
  private long line;
  private boolean tooLong;
  private @Nullable String problem;

  JsonLinesRowSource(Reader reader) {
    this.reader = reader;
  }

  @Override
  public boolean next(RowFields fields) throws IOException {
    fields.clear();
    problem = null;
    while (readLine()) {
      line = lineNumber;
      if (tooLong) {
        problem = "the line is longer than " + ImportLimits.MAX_RECORD_CHARS + " characters";
        return true;
      }
      if (current.toString().isBlank()) continue;
      JsonNode node;
      try {
        node = Json.MAPPER.readTree(current.toString());
      } catch (JacksonException e) {
        problem = "malformed JSON: " + CsvRowSource.firstLine(e);
        return true;
      } catch (NumberFormatException e) {
        problem = "malformed JSON: a number too large to read";
        return true;
      }
      String unstorable = StoredText.problemIn(node);
      if (unstorable != null) {
        problem = unstorable;
        return true;
      }
      try {
        JsonRows.fill(node, fields);
      } catch (InvalidInputException e) {
        problem = String.join("; ", e.problems());
      }
      return true;
    }
    return false;
  }

  /** Reads the next line into {@code current}; false at the end of input. */
  private boolean readLine() throws IOException {
    current.setLength(0);
    tooLong = false;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = reader.read(buffer, 0, buffer.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          if (any) lineNumber++;
          return any;
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') position++;
      append(start, position);
      if (position < limit) {
        position++;
        lineNumber++;
        int length = current.length();
        if (length > 0 && current.charAt(length - 1) == '\r') current.setLength(length - 1);
        return true;
      }
    }
  }

  private void append(int from, int to) {
    if (tooLong) return;
    if (current.length() + (to - from) > ImportLimits.MAX_RECORD_CHARS) {
      tooLong = true;
      current.setLength(0);
      return;
    }
    current.append(buffer, from, to - from);
  }

  @Override
  public long line() {
    return line;
  }

  @Override
  public @Nullable String problem() {
    return problem;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}

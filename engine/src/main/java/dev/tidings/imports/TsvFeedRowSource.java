package dev.tidings.imports;

import dev.tidings.Problems;
import dev.tidings.StoredText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * A tab-separated product feed (Google Merchant Center's text format): a header row of attribute names, then
 * one product per line, cells separated by tabs. A name may be written {@code image_link}, {@code image link}
 * or {@code g:image_link}; columns the schema does not name are skipped (a feed carries many attributes
 * Tidings does not use), a required one missing makes the file malformed. A cell wrapped in double quotes
 * loses them ({@code ""} inside stands for one quote), so a value may hold a tab.
 */
final class TsvFeedRowSource implements RowSource {
  private static final int SKIPPED = -1;

  private final Reader reader;
  private final RowSchema schema;
  private final int[] fieldOfColumn;
  private final StringBuilder record = new StringBuilder();
  private long nextLine = 1;
  private long line;
  private @Nullable String problem;
  private boolean ended;

  TsvFeedRowSource(Reader reader, RowSchema schema) throws IOException {
    this.reader = reader instanceof BufferedReader ? reader : new BufferedReader(reader, 64 * 1024);
    this.schema = schema;
    try {
      this.fieldOfColumn = readHeader();
    } catch (CharacterCodingException e) {
      throw new MalformedFileException(line, "the file is not valid UTF-8 (in the header)");
    }
  }

  private int[] readHeader() throws IOException {
    List<String> header;
    do {
      if (!readRecord()) {
        throw new MalformedFileException(
            1, "the file is empty: a header row naming the attributes is required");
      }
      header = cells();
    } while (header.size() == 1 && header.get(0).isBlank());
    if (header.size() > ImportLimits.MAX_COLUMNS * 4) {
      throw new MalformedFileException(
          line, "the header has more than " + ImportLimits.MAX_COLUMNS * 4 + " columns");
    }
    var problems = new ArrayList<String>();
    int[] fields = new int[header.size()];
    var named = new boolean[schema.size()];
    for (int column = 0; column < header.size(); column++) {
      String name = attributeName(header.get(column));
      OptionalInt index = schema.indexOfColumn(name);
      fields[column] = SKIPPED;
      if (index.isEmpty()) continue;
      if (named[index.getAsInt()]) {
        problems.add("the attribute " + Problems.quote(name) + " appears twice in the header");
        continue;
      }
      named[index.getAsInt()] = true;
      fields[column] = index.getAsInt();
    }
    for (int field = 0; field < schema.size(); field++) {
      if (schema.field(field).required() && !named[field]) {
        problems.add("the header lacks the required attribute '"
            + RowSchema.snakeCase(schema.field(field).name()) + "'");
      }
    }
    if (!problems.isEmpty()) throw new MalformedFileException(line, String.join("; ", problems));
    return fields;
  }

  /** {@code g:Image Link} -> {@code image_link}. */
  static String attributeName(String cell) {
    String name = cell.strip().toLowerCase(Locale.ROOT);
    if (name.startsWith("g:")) name = name.substring(2);
    return name.replace(' ', '_');
  }

  @Override
  public boolean next(RowFields fields) throws IOException {
    fields.clear();
    problem = null;
    while (true) {
      if (ended || !readRecord()) return false;
      if (!record.toString().isBlank()) break;
    }
    List<String> cells = cells();
    if (cells.size() > fieldOfColumn.length) {
      problem = "the line has " + cells.size() + " cells but the header has " + fieldOfColumn.length
          + " columns";
    }
    for (int column = 0; column < Math.min(cells.size(), fieldOfColumn.length); column++) {
      int field = fieldOfColumn[column];
      if (field == SKIPPED) continue;
      String cell = cells.get(column).strip();
      if (cell.length() > ImportLimits.MAX_FIELD_CHARS && problem == null) {
        problem = schema.field(field).name() + " is longer than " + ImportLimits.MAX_FIELD_CHARS
            + " characters";
      }
      String unstorable = problem == null ? StoredText.problem(cell) : null;
      if (unstorable != null) problem = schema.field(field).name() + " " + unstorable;
      fields.setText(field, cell);
    }
    return true;
  }

  /**
   * Reads the next record into {@link #record}: one line, or more when a quoted cell spans line breaks;
   * false at the end of the file. In a cell that starts with a quote every quote toggles quoting, so an
   * escaped quote ({@code ""}) leaves it quoted.
   */
  private boolean readRecord() throws IOException {
    record.setLength(0);
    line = nextLine;
    boolean quoted = false;
    boolean quotedCell = false;
    boolean cellStart = true;
    boolean any = false;
    int c;
    while ((c = reader.read()) >= 0) {
      any = true;
      if (c == '\n') {
        nextLine++;
        if (!quoted) return true;
      } else if (c == '\r' && !quoted) {
        continue;
      }
      if (c == '"') {
        if (cellStart) quotedCell = true;
        if (quotedCell) quoted = !quoted;
      }
      if (c == '\t' && !quoted) {
        cellStart = true;
        quotedCell = false;
      } else {
        cellStart = false;
      }
      if (record.length() >= ImportLimits.MAX_RECORD_CHARS) {
        throw new MalformedFileException(
            line,
            "the line at " + line + " is longer than " + ImportLimits.MAX_RECORD_CHARS
                + " characters");
      }
      record.append((char) c);
    }
    ended = true;
    return any;
  }

  /** The record's cells, quotes removed. */
  private List<String> cells() {
    var cells = new ArrayList<String>();
    var cell = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < record.length(); i++) {
      char c = record.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < record.length() && record.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          cell.append(c);
        }
      } else if (c == '\t') {
        cells.add(cell.toString());
        cell.setLength(0);
        wasQuoted = false;
      } else if (c == '"' && cell.isEmpty() && !wasQuoted) {
        quoted = true;
        wasQuoted = true;
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
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

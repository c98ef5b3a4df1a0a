package dev.tidings.imports;

import dev.tidings.Problems;
import dev.tidings.StoredText;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.dataformat.csv.CsvFactory;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvReadFeature;
import tools.jackson.dataformat.csv.CsvSchema;

/**
 * RFC 4180 CSV with a header row, streamed with Jackson's CSV parser: each record arrives as an array of
 * cells. A record's line is where it starts, so quoted line breaks inside it do not shift later lines.
 */
final class CsvRowSource implements RowSource {
  private static final CsvMapper CSV = CsvMapper.builder(CsvFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxStringLength(ImportLimits.MAX_FIELD_CHARS)
              .build())
          .build())
      .enable(CsvReadFeature.WRAP_AS_ARRAY)
      .enable(CsvReadFeature.SKIP_EMPTY_LINES)
      .build();

  private final JsonParser parser;
  private final RowSchema schema;
  private final int[] fieldOfColumn;
  private long line;
  private @Nullable String problem;

  CsvRowSource(Reader reader, RowSchema schema) {
    this.schema = schema;
    this.parser = CSV.readerFor(String[].class).with(CsvSchema.emptySchema()).createParser(reader);
    this.fieldOfColumn = readHeader();
  }

  private int[] readHeader() {
    List<String> header = new ArrayList<>();
    try {
      // WRAP_AS_ARRAY: the whole file is one array of records, each an array of cells.
      JsonToken token = parser.nextToken();
      if (token == JsonToken.START_ARRAY) token = parser.nextToken();
      if (token != JsonToken.START_ARRAY) {
        throw new MalformedFileException(
            1, "the file is empty: a header row naming the columns is required");
      }
      while ((token = parser.nextToken()) == JsonToken.VALUE_STRING) {
        if (header.size() == ImportLimits.MAX_COLUMNS) {
          throw new MalformedFileException(
              1, "the header has more than " + ImportLimits.MAX_COLUMNS + " columns");
        }
        header.add(parser.getString().strip());
      }
    } catch (JacksonException e) {
      throw new MalformedFileException(1, "unreadable header: " + firstLine(e));
    }
    var problems = new ArrayList<String>();
    int[] fields = new int[header.size()];
    // The cell that named each field first: tells a repeated column from a second spelling.
    var namedBy = new @Nullable String[schema.size()];
    for (int column = 0; column < header.size(); column++) {
      String name = header.get(column);
      OptionalInt index = schema.indexOfColumn(name);
      if (index.isEmpty()) {
        problems.add("unknown column " + Problems.quote(name) + " in the header");
        continue;
      }
      int field = index.getAsInt();
      String earlier = namedBy[field];
      if (earlier == null) {
        namedBy[field] = name;
        fields[column] = field;
      } else if (earlier.equals(name)) {
        problems.add("column '" + name + "' appears twice in the header");
      } else {
        problems.add("columns '" + earlier + "' and '" + name + "' both name the field '"
            + schema.field(field).name() + "'");
      }
    }
    for (int field = 0; field < schema.size(); field++) {
      if (schema.field(field).required() && namedBy[field] == null) {
        problems.add(
            "the header lacks the required column '" + schema.field(field).name() + "'");
      }
    }
    if (!problems.isEmpty()) {
      throw new MalformedFileException(
          1,
          String.join("; ", problems) + " (the columns are: " + String.join(", ", schema.names())
              + ")");
    }
    return fields;
  }

  @Override
  public boolean next(RowFields fields) throws IOException {
    fields.clear();
    problem = null;
    try {
      JsonToken token = parser.nextToken();
      if (token != JsonToken.START_ARRAY) return false;
      int column = 0;
      while ((token = parser.nextToken()) == JsonToken.VALUE_STRING) {
        // The first cell's location is where the record starts;
        // a quoted line break in it comes later.
        if (column == 0) line = parser.currentTokenLocation().getLineNr();
        if (column < fieldOfColumn.length) {
          String cell = parser.getString();
          String unstorable = problem == null ? StoredText.problem(cell) : null;
          if (unstorable != null)
            problem = schema.field(fieldOfColumn[column]).name() + " " + unstorable;
          fields.setText(fieldOfColumn[column], cell);
        }
        column++;
      }
      if (column > fieldOfColumn.length) {
        String cells = "the record has " + column + " cells but the header has "
            + fieldOfColumn.length + " columns";
        problem = problem == null ? cells : problem + "; " + cells;
      }
      return true;
    } catch (JacksonIOException e) {
      throw e.getCause() != null ? e.getCause() : new IOException(e);
    } catch (JacksonException e) {
      long at = e.getLocation() == null ? line : e.getLocation().getLineNr();
      throw new MalformedFileException(at, "unreadable CSV near line " + at + ": " + firstLine(e));
    }
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
  public void close() {
    parser.close();
  }

  static String firstLine(JacksonException e) {
    String message = e.getOriginalMessage();
    if (message == null) return e.getClass().getSimpleName();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}

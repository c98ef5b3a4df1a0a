package dev.tidings.sample;

import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Writes rows of one kind, one at a time, in either import format. A row is an array aligned with the
 * columns; null means "not given" (an empty CSV cell, an absent JSON field). Values are String,
 * BigDecimal, Integer, Boolean or a Map of strings (a JSON object; in CSV its JSON text in one cell).
 */
sealed interface RowSink extends AutoCloseable permits RowSink.Csv, RowSink.Jsonl {

  void row(Object[] values);

  @Override
  void close();

  static RowSink open(OutputStream out, SampleFormat format, List<String> columns) {
    return switch (format) {
      case CSV -> new Csv(out, columns);
      case JSONL -> new Jsonl(out, columns);
    };
  }

  /** RFC 4180 quoting by hand: fast, and exactly what the importer's CSV parser reads. */
  final class Csv implements RowSink {
    private final Writer writer;
    private final int width;

    Csv(OutputStream out, List<String> columns) {
      this.writer =
          new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
      this.width = columns.size();
      write(String.join(",", columns));
      write("\n");
    }

    @Override
    public void row(Object[] values) {
      if (values.length != width)
        throw new IllegalArgumentException("row has " + values.length + " values, header " + width);
      var line = new StringBuilder(256);
      for (int i = 0; i < values.length; i++) {
        if (i > 0) line.append(',');
        Object value = values[i];
        if (value != null) appendCell(line, text(value));
      }
      write(line.append('\n').toString());
    }

    private static String text(Object value) {
      return switch (value) {
        case String s -> s;
        case BigDecimal d -> d.toPlainString();
        case Map<?, ?> m -> JsonText.object(m);
        default -> value.toString();
      };
    }

    private static void appendCell(StringBuilder line, String cell) {
      boolean quote = !cell.isEmpty()
          && (Character.isWhitespace(cell.charAt(0))
              || Character.isWhitespace(cell.charAt(cell.length() - 1)));
      for (int i = 0; i < cell.length() && !quote; i++) {
        char c = cell.charAt(i);
        quote = c == ',' || c == '"' || c == '\n' || c == '\r';
      }
      if (!quote) {
        line.append(cell);
        return;
      }
      line.append('"');
      for (int i = 0; i < cell.length(); i++) {
        char c = cell.charAt(i);
        if (c == '"') line.append('"');
        line.append(c);
      }
      line.append('"');
    }

    private void write(String text) {
      try {
        writer.write(text);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      try {
        writer.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** One JSON object per line, through Jackson's streaming generator. */
  final class Jsonl implements RowSink {
    private static final JsonFactory FACTORY =
        JsonFactory.builder().rootValueSeparator("\n").build();
    private final JsonGenerator generator;
    private final List<String> columns;
    private boolean any;

    Jsonl(OutputStream out, List<String> columns) {
      this.generator =
          FACTORY.createGenerator(ObjectWriteContext.empty(), new UnclosableOutputStream(out));
      this.columns = columns;
    }

    @Override
    public void row(Object[] values) {
      if (values.length != columns.size())
        throw new IllegalArgumentException("row does not match the columns");
      generator.writeStartObject();
      for (int i = 0; i < values.length; i++) {
        Object value = values[i];
        if (value == null) continue;
        generator.writeName(columns.get(i));
        switch (value) {
          case String s -> generator.writeString(s);
          case BigDecimal d -> generator.writeNumber(d);
          case Integer n -> generator.writeNumber(n);
          case Long n -> generator.writeNumber(n);
          case Boolean b -> generator.writeBoolean(b);
          case Map<?, ?> m -> {
            generator.writeStartObject();
            for (var entry : m.entrySet())
              generator.writeStringProperty(
                  entry.getKey().toString(), entry.getValue().toString());
            generator.writeEndObject();
          }
          default ->
            throw new IllegalArgumentException("unsupported value type " + value.getClass());
        }
      }
      generator.writeEndObject();
      any = true;
    }

    @Override
    public void close() {
      if (any) generator.writeRaw('\n');
      generator.close();
    }
  }

  /** The caller owns the stream; the generator must flush it, not close it. */
  final class UnclosableOutputStream extends FilterOutputStream {
    UnclosableOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }

  /** Minimal JSON text for a flat map of strings (the CSV attributes cell). */
  final class JsonText {
    private JsonText() {}

    static String object(Map<?, ?> map) {
      var json = new StringBuilder(64).append('{');
      boolean first = true;
      for (var entry : map.entrySet()) {
        if (!first) json.append(',');
        first = false;
        string(json, entry.getKey().toString());
        json.append(':');
        string(json, entry.getValue().toString());
      }
      return json.append('}').toString();
    }

    private static void string(StringBuilder json, String value) {
      json.append('"');
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        switch (c) {
          case '"' -> json.append("\\\"");
          case '\\' -> json.append("\\\\");
          case '\n' -> json.append("\\n");
          case '\r' -> json.append("\\r");
          case '\t' -> json.append("\\t");
          default -> {
            if (c < 0x20) json.append(String.format("\\u%04x", (int) c));
            else json.append(c);
          }
        }
      }
      json.append('"');
    }
  }
}

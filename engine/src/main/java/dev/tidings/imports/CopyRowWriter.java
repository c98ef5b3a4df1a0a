package dev.tidings.imports;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Encodes rows in PostgreSQL's COPY text format (tab-separated, {@code \N} for null, backslash escapes)
 * straight into a byte buffer, UTF-8 encoded by hand: the hot path of an import allocates nothing per field.
 */
public final class CopyRowWriter {
  private final OutputStream out;
  private final byte[] buffer = new byte[128 * 1024];
  private int size;
  private boolean rowStarted;
  private @Nullable Instant lastInstant;
  private String lastInstantText = "";

  CopyRowWriter(OutputStream out) {
    this.out = out;
  }

  public CopyRowWriter text(@Nullable CharSequence value) throws IOException {
    separator();
    if (value == null) {
      ascii("\\N");
      return this;
    }
    if (value instanceof String string) {
      utf8(string.getBytes(StandardCharsets.UTF_8));
      return this;
    }
    int length = value.length();
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (size + 4 > buffer.length) flushBuffer();
      switch (c) {
        case '\\' -> put2('\\', '\\');
        case '\t' -> put2('\\', 't');
        case '\n' -> put2('\\', 'n');
        case '\r' -> put2('\\', 'r');
        default -> {
          if (c < 0x80) {
            buffer[size++] = (byte) c;
          } else if (c < 0x800) {
            buffer[size++] = (byte) (0xC0 | (c >> 6));
            buffer[size++] = (byte) (0x80 | (c & 0x3F));
          } else if (Character.isHighSurrogate(c)
              && i + 1 < length
              && Character.isLowSurrogate(value.charAt(i + 1))) {
            int cp = Character.toCodePoint(c, value.charAt(++i));
            buffer[size++] = (byte) (0xF0 | (cp >> 18));
            buffer[size++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buffer[size++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buffer[size++] = (byte) (0x80 | (cp & 0x3F));
          } else if (Character.isSurrogate(c)) {
            buffer[size++] = (byte) '?';
          } else {
            buffer[size++] = (byte) (0xE0 | (c >> 12));
            buffer[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
            buffer[size++] = (byte) (0x80 | (c & 0x3F));
          }
        }
      }
    }
    return this;
  }

  /**
   * Strings, the common case, are encoded by {@link String#getBytes} (an intrinsic) and only scanned here for
   * the four bytes COPY needs escaped: far cheaper than encoding char by char. The escaped bytes are ASCII, so
   * they never occur inside a multi-byte UTF-8 sequence.
   */
  private void utf8(byte[] bytes) throws IOException {
    for (byte b : bytes) {
      if (size + 2 > buffer.length) flushBuffer();
      switch (b) {
        case '\\' -> put2('\\', '\\');
        case '\t' -> put2('\\', 't');
        case '\n' -> put2('\\', 'n');
        case '\r' -> put2('\\', 'r');
        default -> buffer[size++] = b;
      }
    }
  }

  public CopyRowWriter number(long value) throws IOException {
    separator();
    ascii(Long.toString(value));
    return this;
  }

  public CopyRowWriter decimal(@Nullable BigDecimal value) throws IOException {
    return text(value == null ? null : value.toPlainString());
  }

  public CopyRowWriter bool(boolean value) throws IOException {
    separator();
    ascii(value ? "t" : "f");
    return this;
  }

  public CopyRowWriter nullableDouble(@Nullable Double value) throws IOException {
    return text(value == null ? null : Double.toString(value));
  }

  /** The import's own time is written twice per row, so its text is kept rather than formatted each time. */
  public CopyRowWriter instant(@Nullable Instant value) throws IOException {
    if (value == null) return text(null);
    if (!value.equals(lastInstant)) {
      lastInstant = value;
      lastInstantText = value.toString();
    }
    return text(lastInstantText);
  }

  void endRow() throws IOException {
    if (size + 1 > buffer.length) flushBuffer();
    buffer[size++] = '\n';
    rowStarted = false;
  }

  private void separator() throws IOException {
    if (rowStarted) {
      if (size + 1 > buffer.length) flushBuffer();
      buffer[size++] = '\t';
    }
    rowStarted = true;
  }

  private void ascii(String s) throws IOException {
    if (size + s.length() > buffer.length) flushBuffer();
    for (int i = 0; i < s.length(); i++) buffer[size++] = (byte) s.charAt(i);
  }

  private void put2(char a, char b) {
    buffer[size++] = (byte) a;
    buffer[size++] = (byte) b;
  }

  void flushBuffer() throws IOException {
    if (size > 0) out.write(buffer, 0, size);
    size = 0;
  }
}

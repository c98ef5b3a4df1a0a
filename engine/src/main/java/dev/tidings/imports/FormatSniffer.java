package dev.tidings.imports;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Tells an import's format from its first bytes (gunzipped when they start with gzip's magic number): XML
 * ({@code <} after a byte order mark and white space) is a product feed; a first line with tabs that names
 * {@code id} or {@code title} is a tab-separated feed; a line starting with {@code {} is JSON Lines; anything
 * else is CSV, whose own header check then says what is wrong.
 */
final class FormatSniffer {
  /** Bytes looked at: far more than a header line or an XML prolog needs. */
  static final int HEAD_BYTES = 8 * 1024;

  private static final Set<String> FEED_COLUMNS = Set.of("id", "title", "g:id", "g:title");

  private FormatSniffer() {}

  /**
   * The format of a file's content; an unreadable gzip layer reads as CSV and fails there, with its line.
   *
   * @throws ImportFailedException when the file cannot be read
   */
  static Format of(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return of(in.readNBytes(HEAD_BYTES));
    } catch (IOException e) {
      throw new ImportFailedException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** The format of content that starts with {@code head} (the whole content or its first bytes). */
  static Format of(byte[] head) {
    byte[] text = head;
    if (head.length >= 2 && (head[0] & 0xFF) == 0x1f && (head[1] & 0xFF) == 0x8b) {
      text = gunzippedHead(head);
    }
    int start = 0;
    if (text.length >= 3
        && (text[0] & 0xFF) == 0xEF
        && (text[1] & 0xFF) == 0xBB
        && (text[2] & 0xFF) == 0xBF) start = 3;
    while (start < text.length && isSpace(text[start])) start++;
    if (start < text.length && text[start] == '<') return Format.FEED_XML;
    if (start < text.length && text[start] == '{') return Format.JSON_LINES;
    int end = start;
    while (end < text.length && text[end] != '\n' && text[end] != '\r') end++;
    String firstLine = new String(text, start, end - start, StandardCharsets.UTF_8);
    if (firstLine.indexOf('\t') >= 0) {
      for (String cell : firstLine.split("\t")) {
        String name = cell.strip().toLowerCase(Locale.ROOT);
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\""))
          name = name.substring(1, name.length() - 1);
        if (FEED_COLUMNS.contains(name)) return Format.FEED_TSV;
      }
    }
    return Format.CSV;
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  /** As much of the gunzipped content as the first bytes give; nothing when they are not valid gzip. */
  private static byte[] gunzippedHead(byte[] head) {
    try (var in = new GZIPInputStream(new BufferedInputStream(new ByteArrayInputStream(head)))) {
      var out = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      try {
        int n;
        while (out.size() < HEAD_BYTES && (n = in.read(buffer)) > 0) out.write(buffer, 0, n);
      } catch (EOFException e) {
        // the head ends before the compressed content does: what was inflated so far is enough
      }
      return out.toByteArray();
    } catch (ZipException | EOFException e) {
      return new byte[0];
    } catch (IOException e) {
      return new byte[0];
    }
  }
}

package dev.tidings.recommend.evaluation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads the UCI "Online Retail" CSV ({@code InvoiceNo,StockCode,Description,Quantity,InvoiceDate,
 * UnitPrice,CustomerID,Country}) as a stream and keeps only real purchases of real products by known
 * customers: a cancellation (invoice starting with {@code C}), a guest line (no CustomerID), a
 * non-positive quantity and a non-product stock code (postage, discounts, fees, manual lines, gift
 * vouchers: the codes the data's README lists) say nothing about what a customer wants next. One
 * invoice is one basket; CustomerID {@code 17850.0} is user {@code 17850}.
 */
public final class OnlineRetailReader {
  private static final Set<String> SERVICE_CODES = Set.of(
      "POST", "D", "M", "DOT", "C2", "BANK CHARGES", "AMAZONFEE", "CRUK", "PADS", "S", "B", "m");
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm[:ss]");
  static final String CANCELLATION = "cancellation";
  static final String GUEST = "guest (no CustomerID)";
  static final String NON_POSITIVE_QUANTITY = "quantity <= 0";
  static final String NON_PRODUCT = "non-product stock code";

  private OnlineRetailReader() {}

  /** Reads {@code file}; a {@code .gz} name is read compressed. */
  public static LoadReport read(Path file, Interactions.Builder into, LongConsumer linesDone)
      throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.getFileName().toString().endsWith(".gz")
            ? new GZIPInputStream(raw, 1 << 16)
            : raw) {
      return read(in, into, linesDone);
    }
  }

  public static LoadReport read(InputStream in, Interactions.Builder into, LongConsumer linesDone)
      throws IOException {
    var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    String header = reader.readLine();
    if (header == null || !header.startsWith("InvoiceNo,StockCode")) {
      throw new IOException(
          "not the Online Retail CSV: the header must start with InvoiceNo,StockCode");
    }
    Map<String, Long> dropped = new LinkedHashMap<>();
    long lines = 0;
    long kept = 0;
    List<String> cells = new ArrayList<>(8);
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      lines++;
      if ((lines & 0xFFFF) == 0) linesDone.accept(lines);
      if (line.isEmpty()) continue;
      split(line, cells);
      if (cells.size() < 8) throw new IOException("line " + (lines + 1) + ": expected 8 columns");
      String reason = dropReason(cells);
      if (reason != null) {
        dropped.merge(reason, 1L, Long::sum);
        continue;
      }
      String invoice = cells.get(0);
      String customer = customerId(cells.get(6));
      long time = LocalDateTime.parse(cells.get(4), DATE).toEpochSecond(ZoneOffset.UTC);
      into.add(customer, cells.get(1), invoice, time, Integer.parseInt(cells.get(3)));
      kept++;
    }
    linesDone.accept(lines);
    return new LoadReport(lines, kept, dropped);
  }

  private static @Nullable String dropReason(List<String> cells) {
    if (cells.get(0).startsWith("C")) return CANCELLATION;
    if (cells.get(6).isBlank()) return GUEST;
    if (Integer.parseInt(cells.get(3).trim()) <= 0) return NON_POSITIVE_QUANTITY;
    String code = cells.get(1);
    if (SERVICE_CODES.contains(code) || code.startsWith("gift_")) return NON_PRODUCT;
    return null;
  }

  /** {@code 17850.0} and {@code 17850} are the same customer. */
  private static String customerId(String cell) {
    String id = cell.trim();
    return id.endsWith(".0") ? id.substring(0, id.length() - 2) : id;
  }

  /** RFC 4180 cells of one line (the file has no line breaks inside quotes). */
  static void split(String line, List<String> cells) {
    cells.clear();
    var cell = new StringBuilder();
    boolean quoted = false;
    for (int at = 0; at < line.length(); at++) {
      char c = line.charAt(at);
      if (quoted) {
        if (c == '"') {
          if (at + 1 < line.length() && line.charAt(at + 1) == '"') {
            cell.append('"');
            at++;
          } else {
            quoted = false;
          }
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
  }
}

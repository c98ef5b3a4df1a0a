package dev.tidings.bench;

import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.imports.RowSchema;
import dev.tidings.storage.Database;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.postgresql.PGConnection;

/**
 * Bulk import throughput: Tidings' import (parse, validate, COPY to staging, merge) of a products CSV and
 * a subscribers CSV, each next to the floor, a raw {@code COPY ... (FORMAT csv, HEADER)} of the same file
 * into a table of text columns. Peak heap is the sum of the heap pools' peaks, reset before each phase.
 */
public final class ImportBench {
  /** One measured phase. */
  public record Phase(
      String name, long rows, double seconds, double rowsPerSecond, long peakHeapBytes) {}

  /** Everything measured, with the JVM's maximum heap ({@code -Xmx}) for context. */
  public record Result(long maxHeapBytes, List<Phase> phases) {}

  private ImportBench() {}

  public static Result run(
      Path productsCsv, Path subscribersCsv, Database database, PrintStream out) {
    var catalog = new CatalogService(database.jdbi(), InstantSource.system());
    var subscribers = new SubscriberService(database.jdbi(), InstantSource.system());
    var phases = new ArrayList<Phase>();
    phases.add(measure(
        "products: tidings import",
        () -> rowsOf(catalog.importFile(productsCsv, ImportOptions.allOrNothing()))));
    phases.add(measure("products: raw COPY (floor)", () -> rawCopy(database, productsCsv)));
    phases.add(measure(
        "products: raw COPY, real table",
        () -> rawCopyIntoTableLike(database, productsCsv, "products")));
    phases.add(measure(
        "subscribers: tidings import",
        () -> rowsOf(subscribers.importFile(subscribersCsv, ImportOptions.allOrNothing()))));
    phases.add(measure("subscribers: raw COPY (floor)", () -> rawCopy(database, subscribersCsv)));
    phases.add(measure(
        "subscribers: raw COPY, real table",
        () -> rawCopyIntoTableLike(database, subscribersCsv, "subscribers")));
    var result = new Result(Runtime.getRuntime().maxMemory(), List.copyOf(phases));
    print(result, out);
    return result;
  }

  private static long rowsOf(ImportReport report) {
    if (!report.committed() || report.rejected() > 0) {
      throw new IllegalStateException(
          "the benchmark file did not import cleanly: " + report.failure().orElse("") + " "
              + report.errors().stream()
                  .limit(5)
                  .map(e -> "line " + e.line() + ": " + e.reason())
                  .toList());
    }
    return report.imported();
  }

  private interface Work {
    long run() throws Exception;
  }

  private static Phase measure(String name, Work work) {
    List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isValid())
        .toList();
    System.gc();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    long started = System.nanoTime();
    long rows;
    try {
      rows = work.run();
    } catch (Exception e) {
      throw new IllegalStateException(name + " failed: " + e.getMessage(), e);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    long peak = heap.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    return new Phase(name, rows, seconds, rows / seconds, peak);
  }

  /** COPY of the file as it is into a fresh table with one text column per header column; dropped after. */
  static long rawCopy(Database database, Path csv) throws IOException, SQLException {
    List<String> header;
    try (var reader =
        new BufferedReader(new InputStreamReader(open(csv), StandardCharsets.UTF_8))) {
      String line = reader.readLine();
      if (line == null) throw new IOException(csv + " is empty");
      header = Arrays.stream(line.split(",")).map(String::strip).toList();
    }
    String columns = header.stream()
        .map(name -> "\"" + name.replace("\"", "\"\"") + "\" text")
        .collect(Collectors.joining(", "));
    try (Connection connection = database.dataSource().getConnection()) {
      try (var statement = connection.createStatement()) {
        statement.execute("DROP TABLE IF EXISTS bench_raw_copy");
        statement.execute("CREATE TABLE bench_raw_copy (" + columns + ")");
      }
      try (InputStream in = open(csv)) {
        return connection
            .unwrap(PGConnection.class)
            .getCopyAPI()
            .copyIn("COPY bench_raw_copy FROM STDIN (FORMAT csv, HEADER)", in, 256 * 1024);
      } finally {
        try (var statement = connection.createStatement()) {
          statement.execute("DROP TABLE IF EXISTS bench_raw_copy");
        }
      }
    }
  }

  /**
   * COPY of the file, unvalidated, into a copy of {@code table} with all its indexes and constraints: what
   * PostgreSQL itself needs to store these rows in that schema. The import cannot beat this floor.
   */
  static long rawCopyIntoTableLike(Database database, Path csv, String table)
      throws IOException, SQLException {
    String columns;
    try (var reader =
        new BufferedReader(new InputStreamReader(open(csv), StandardCharsets.UTF_8))) {
      String line = reader.readLine();
      if (line == null) throw new IOException(csv + " is empty");
      columns = Arrays.stream(line.split(","))
          .map(String::strip)
          .map(RowSchema::snakeCase)
          .collect(Collectors.joining(", "));
    }
    try (Connection connection = database.dataSource().getConnection()) {
      try (var statement = connection.createStatement()) {
        statement.execute("DROP TABLE IF EXISTS bench_like_copy");
        statement.execute("CREATE TABLE bench_like_copy (LIKE " + table + " INCLUDING ALL)");
        statement.execute(
            "ALTER TABLE bench_like_copy ALTER COLUMN created_at SET DEFAULT now(), ALTER COLUMN updated_at SET DEFAULT now()");
      }
      try (InputStream in = open(csv)) {
        return connection
            .unwrap(PGConnection.class)
            .getCopyAPI()
            .copyIn(
                "COPY bench_like_copy (" + columns + ") FROM STDIN (FORMAT csv, HEADER)",
                in,
                256 * 1024);
      } finally {
        try (var statement = connection.createStatement()) {
          statement.execute("DROP TABLE IF EXISTS bench_like_copy");
        }
      }
    }
  }

  private static InputStream open(Path file) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 256 * 1024);
    return file.toString().endsWith(".gz")
        ? new BufferedInputStream(new GZIPInputStream(in, 64 * 1024), 256 * 1024)
        : in;
  }

  static void print(Result result, PrintStream out) {
    out.printf(
        Locale.ROOT, "Import benchmark (max heap -Xmx %d MB)%n", result.maxHeapBytes() >> 20);
    out.printf(
        Locale.ROOT,
        "%-32s %10s %9s %12s %14s%n",
        "phase",
        "rows",
        "seconds",
        "rows/s",
        "peak heap MB");
    for (Phase phase : result.phases()) {
      out.printf(
          Locale.ROOT,
          "%-32s %10d %9.2f %12.0f %14.1f%n",
          phase.name(),
          phase.rows(),
          phase.seconds(),
          phase.rowsPerSecond(),
          phase.peakHeapBytes() / 1048576.0);
    }
  }
}

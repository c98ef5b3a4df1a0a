package dev.tidings.web;

import dev.tidings.imports.Format;
import dev.tidings.imports.ImportMode;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.imports.RowError;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The bulk-import endpoints' shared edge: the format from Content-Type, the mode from {@code ?mode=},
 * the body received whole first ({@link Uploads}: in memory when small, else in a file deleted
 * afterwards) with its size limit, and only then the import, which takes its database connection for
 * the time it parses and writes, never while a slow client trickles its body. The report is the
 * answer: 200 when the import committed (the report lists any rejected rows), 422 when it committed
 * nothing.
 */
public final class Imports {
  private static final String[] TYPES = {
    "text/csv", "application/x-ndjson", "application/jsonl", "application/x-jsonlines"
  };

  private Imports() {}

  @FunctionalInterface
  public interface Importer {
    ImportReport run(InputStream body, Format format, ImportOptions options);
  }

  public static void handle(
      ServerRequest request, ServerResponse response, Uploads uploads, Importer importer) {
    ImportReport report = run(request, uploads, mode(request), importer);
    var body = ReportJson.of(report);
    if (report.committed()) {
      JsonBodies.ok(response, body);
    } else {
      String detail = report
          .failure()
          .orElse(
              report.rejected() + " invalid row(s) and mode all-or-nothing: nothing was imported");
      JsonBodies.write(response, 422, new Refused("invalid", detail, body));
    }
  }

  /**
   * Receives the body, then imports it: 415 for a type that is neither CSV nor JSON Lines (before a
   * byte of the body is read), 413 past the limit (and nothing imported).
   */
  public static ImportReport run(
      ServerRequest request, Uploads uploads, ImportMode mode, Importer importer) {
    var type = JsonBodies.requireContentType(request, TYPES);
    Format format = Format.ofContentType(type.mediaType().text());
    try (SpooledBody received = uploads.receive(request);
        InputStream body = received.open()) {
      return importer.run(body, format, ImportOptions.defaults().withMode(mode));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ImportMode mode(ServerRequest request) {
    String mode = Requests.query(request, "mode").orElse("valid-rows").toLowerCase(Locale.ROOT);
    return switch (mode) {
      case "valid-rows" -> ImportMode.VALID_ROWS;
      case "all-or-nothing" -> ImportMode.ALL_OR_NOTHING;
      default ->
        throw ApiProblem.badRequest(
            "mode must be valid-rows or all-or-nothing but was '" + mode + "'");
    };
  }

  record Refused(String error, String detail, ReportJson report) {}

  record ReportJson(
      String kind,
      long rowsRead,
      long imported,
      long ignored,
      long rejected,
      boolean committed,
      Optional<String> failure,
      List<RowError> errors,
      boolean truncatedErrors,
      double seconds) {
    static ReportJson of(ImportReport report) {
      return new ReportJson(
          report.kind(),
          report.rowsRead(),
          report.imported(),
          report.ignored(),
          report.rejected(),
          report.committed(),
          report.failure(),
          report.errors(),
          report.truncatedErrors(),
          report.duration().toMillis() / 1000.0);
    }
  }
}

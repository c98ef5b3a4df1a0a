package dev.tidings.web;

import dev.tidings.imports.Format;
import dev.tidings.imports.ImportFailedException;
import dev.tidings.imports.ImportMode;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.imports.RowError;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The bulk-import endpoints' shared edge: the body streamed (never buffered) with a size limit, the
 * format from Content-Type, the mode from {@code ?mode=}, and the report as the answer: 200 when the
 * import committed (the report lists any rejected rows), 422 when it committed nothing.
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
      ServerRequest request, ServerResponse response, long maxBytes, Importer importer) {
    ImportReport report = run(request, maxBytes, mode(request), importer);
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

  /** Streams the body into {@code importer}: 415 for a type that is neither CSV nor JSON Lines, 413 past {@code maxBytes}. */
  public static ImportReport run(
      ServerRequest request, long maxBytes, ImportMode mode, Importer importer) {
    var type = JsonBodies.requireContentType(request, TYPES);
    Format format = Format.ofContentType(type.mediaType().text());
    try (InputStream body = Bodies.limited(request, maxBytes)) {
      return importer.run(body, format, ImportOptions.defaults().withMode(mode));
    } catch (ImportFailedException e) {
      if (causedByOversizeBody(e)) throw ApiProblem.tooLarge(maxBytes);
      throw e;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
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

  private static boolean causedByOversizeBody(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BodyTooLargeException) return true;
    }
    return false;
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

package dev.tidings.web.activity;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportMode;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.web.*;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * {@code POST /api/v1/events}: activity events as a JSON array or JSON Lines. A request is one batch:
 * every event is valid and stored, or none is (422 naming each bad event by its position). An event id
 * seen before is counted as a duplicate, not stored twice.
 */
public final class ActivityRoutes implements RouteGroup {
  private final ActivityIntake activity;
  private final long maxBodyBytes;
  private final long maxImportBytes;

  public ActivityRoutes(ActivityIntake activity, long maxBodyBytes, long maxImportBytes) {
    this.activity = activity;
    this.maxBodyBytes = maxBodyBytes;
    this.maxImportBytes = maxImportBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.post("/api/v1/events", (request, response) -> {
      var type = request.headers().contentType();
      if (type.isPresent() && JsonBodies.isJson(type.get())) {
        var array = JsonBodies.read(request, maxBodyBytes);
        if (!array.isArray())
          throw ApiProblem.unprocessable(
              "expected a JSON array of events (or JSON Lines with Content-Type application/x-ndjson)");
        if (array.isEmpty()) throw ApiProblem.unprocessable("the array holds no events");
        var lines = new ByteArrayOutputStream();
        for (var event : array) {
          lines.writeBytes(Json.MAPPER.writeValueAsBytes(event));
          lines.write('\n');
        }
        var report = activity.importEvents(
            new ByteArrayInputStream(lines.toByteArray()),
            Format.JSON_LINES,
            ImportOptions.defaults().withMode(ImportMode.ALL_OR_NOTHING));
        answer(response, report, "event");
        return;
      }
      answer(
          response,
          Imports.run(request, maxImportBytes, ImportMode.ALL_OR_NOTHING, activity::importEvents),
          "line");
    });
  }

  private static void answer(ServerResponse response, ImportReport report, String position) {
    if (!report.committed()) {
      var problems = report.errors().stream()
          .map(error -> position + " " + error.line() + ": " + error.reason())
          .toList();
      throw new InvalidInputException(
          problems.isEmpty() ? List.of(report.failure().orElse("invalid events")) : problems);
    }
    JsonBodies.write(response, 202, new Accepted(report.imported(), report.ignored()));
  }

  record Accepted(long accepted, long duplicates) {}
}

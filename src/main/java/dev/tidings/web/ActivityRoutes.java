package dev.tidings.web;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportMode;
import dev.tidings.imports.ImportOptions;
import io.helidon.webserver.http.HttpRouting;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

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
      if (type.isPresent() && Json.isJson(type.get())) {
        var array = Json.read(request, maxBodyBytes);
        if (!array.isArray()) throw ApiProblem.unprocessable("expected a JSON array of events (or JSON Lines with Content-Type application/x-ndjson)");
        if (array.isEmpty()) throw ApiProblem.unprocessable("the array holds no events");
        var lines = new ByteArrayOutputStream();
        for (var event : array) {
          lines.writeBytes(Json.MAPPER.writeValueAsBytes(event));
          lines.write('\n');
        }
        var report = activity.importEvents(new ByteArrayInputStream(lines.toByteArray()), Format.JSON_LINES,
            ImportOptions.defaults().withMode(ImportMode.ALL_OR_NOTHING));
        if (!report.committed()) {
          var problems = report.errors().stream().map(error -> "event " + error.line() + ": " + error.reason()).toList();
          throw new dev.tidings.InvalidInputException(problems.isEmpty() ? java.util.List.of(report.failure().orElse("invalid events")) : problems);
        }
        Json.write(response, 202, new Accepted(report.imported(), report.ignored()));
        return;
      }
      Imports.handle(request, response, maxImportBytes, (body, format, options) ->
          activity.importEvents(body, format, options.withMode(ImportMode.ALL_OR_NOTHING)));
    });
  }

  record Accepted(long accepted, long duplicates) {}
}

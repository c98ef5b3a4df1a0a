package dev.tidings.web.activity;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.IntakeResult;
import dev.tidings.imports.Format;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.SpooledBody;
import dev.tidings.web.Uploads;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code POST /api/v1/events}: activity events as a JSON array (up to the JSON body limit) or JSON Lines (up
 * to the import limit, received whole before they are read and written: {@link Uploads}). A request is one batch: every event is valid and
 * stored, or none is (422 naming each bad event by its position). An event id seen before is counted as a
 * duplicate, not stored twice.
 */
public final class ActivityRoutes implements RouteGroup {
  /** JSON Lines under its several names; CSV too, as a bulk import of events would take it. */
  private static final String[] LINE_TYPES = {
    "application/x-ndjson", "application/jsonl", "application/x-jsonlines", "text/csv"
  };

  private final ActivityIntake activity;
  private final long maxBodyBytes;
  private final Uploads uploads;

  /** JSON Lines past {@code maxImportBytes} are refused; larger ones wait in java.io.tmpdir. */
  public ActivityRoutes(ActivityIntake activity, long maxBodyBytes, long maxImportBytes) {
    this(activity, maxBodyBytes, Uploads.inTemporaryDirectory(maxImportBytes));
  }

  public ActivityRoutes(ActivityIntake activity, long maxBodyBytes, Uploads uploads) {
    this.activity = activity;
    this.maxBodyBytes = maxBodyBytes;
    this.uploads = uploads;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.post("/api/v1/events", (request, response) -> {
      IntakeResult result = isJson(request) ? recordArray(request) : recordLines(request);
      JsonBodies.write(response, 202, new Accepted(result.accepted(), result.duplicates()));
    });
  }

  private static boolean isJson(ServerRequest request) {
    var type = request.headers().contentType();
    return type.isPresent() && JsonBodies.isJson(type.get());
  }

  private IntakeResult recordArray(ServerRequest request) {
    var array = JsonBodies.read(request, maxBodyBytes);
    if (!array.isArray())
      throw ApiProblem.unprocessable(
          "expected a JSON array of events (or JSON Lines with Content-Type application/x-ndjson)");
    if (array.isEmpty()) throw ApiProblem.unprocessable("the array holds no events");
    return activity.recordJson(array);
  }

  private IntakeResult recordLines(ServerRequest request) {
    var type = JsonBodies.requireContentType(request, LINE_TYPES);
    Format format = Format.ofContentType(type.mediaType().text());
    // a batch past the intake's first statement holds a connection while the rest is read: read
    // from the received body, never from a client that may trickle it
    try (SpooledBody received = uploads.receive(request);
        InputStream body = received.open()) {
      return activity.recordLines(body, format);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Accepted(long accepted, long duplicates) {}
}

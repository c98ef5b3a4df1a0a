package dev.tidings.web;

import dev.tidings.ErrorKind;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.TidingsException;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one place where failures become HTTP answers. A feature's exception says what happened by its
 * {@link ErrorKind}, and each kind has one status here; a dependency that is down (the database,
 * Redis, the queue) is a 503 with Retry-After, wherever it shows in the cause chain; anything else is a
 * 500 whose body names a log reference and nothing internal.
 */
final class ErrorMapping {
  private static final Logger log = LoggerFactory.getLogger(ErrorMapping.class);

  /** Seconds a client waits before trying a 503 again: a restart or a failover takes about that. */
  static final String RETRY_AFTER_SECONDS = "5";

  private ErrorMapping() {}

  static void register(HttpRouting.Builder routing) {
    // Helidon's own refusals met while a route runs (a query it cannot decode):
    // their status, our body
    routing.error(HttpException.class, (request, response, refused) -> {
      Status status = refused.status();
      if (status.code() >= 500) {
        answer(request, response, refused);
        return;
      }
      send(
          response,
          new ApiProblem(
              status.code(),
              ServerErrors.error(status),
              refused.getMessage() == null ? status.reasonPhrase() : refused.getMessage()));
    });
    routing.error(Exception.class, ErrorMapping::answer);
  }

  private static void answer(ServerRequest request, ServerResponse response, Exception failure) {
    String reference = UUID.randomUUID().toString();
    ApiProblem problem = problem(failure, reference);
    // only a failure nothing else explains is the client going away: a database link cut
    // mid-request also ends in a socket failure, and that is an outage to retry (503)
    if (problem.status() == 500 && ClientGone.causedBy(failure)) {
      log.debug(
          "the client ended {} {} before its body did",
          request.prologue().method().text(),
          request.path().path());
      send(
          response,
          ApiProblem.badRequest(
              "the request ended before its declared length (the client closed the connection)"));
      return;
    }
    // a problem a route chose is its own answer, logged (or not) where it was chosen
    if (!(failure instanceof ApiProblem)) {
      if (problem.status() == 500) {
        log.error(
            "unhandled failure on {} {} (reference {})",
            request.prologue().method().text(),
            request.path().path(),
            reference,
            failure);
      } else if (problem.status() == 503) {
        // an outage fails every request while it lasts: one line each, not a stack trace each
        log.warn(
            "{} {} answered 503, {}: {}",
            request.prologue().method().text(),
            request.path().path(),
            problem.detail(),
            DependencyProbes.withoutCredentials(
                failure.getClass().getSimpleName() + ": " + TidingsException.rootMessage(failure)));
      }
    }
    send(response, problem);
  }

  /** The answer to {@code failure}; {@code reference} names it in the log when it is ours. */
  static ApiProblem problem(Throwable failure, String reference) {
    if (failure instanceof ApiProblem chosen) return chosen;
    if (failure instanceof TidingsException known && known.kind() != ErrorKind.INTERNAL)
      return of(known.kind(), known.detail(), known.asProblems(), reference);
    return Outages.unavailable(failure)
        .map(dependency -> of(ErrorKind.UNAVAILABLE, dependency, List.of(), reference))
        .orElseGet(() -> of(ErrorKind.INTERNAL, "", List.of(), reference));
  }

  private static ApiProblem of(
      ErrorKind kind, String detail, List<Problem> problems, String reference) {
    return switch (kind) {
      case UNAVAILABLE ->
        ApiProblem.of(kind, detail + "; retry later (reference " + reference + ")", List.of());
      case INTERNAL ->
        ApiProblem.of(
            kind,
            "the server failed; the log has the details under reference " + reference,
            List.of());
      default -> ApiProblem.of(kind, detail, problems);
    };
  }

  /** The headers that go with an answer of {@code problem}'s status. */
  static Map<HeaderName, String> headers(ApiProblem problem) {
    return switch (problem.status()) {
      case 401 -> Map.of(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"tidings\"");
      case 503 -> Map.of(HeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
      // The rest of an oversized body is not worth reading:
      // tell the client this connection ends here.
      case 413 -> Map.of(HeaderNames.CONNECTION, "close");
      default -> Map.of();
    };
  }

  static void send(ServerResponse response, ApiProblem problem) {
    if (response.isSent()) return;
    headers(problem).forEach(response::header);
    JsonBodies.write(response, problem.status(), body(problem));
  }

  /**
   * {@code {"error", "detail"}}, with {@code field} when a problem names one, and {@code problems}
   * (each with its own field) when there are several: a form finds its field without reading the
   * sentence.
   */
  static ObjectNode body(ApiProblem problem) {
    ObjectNode body = Json.MAPPER
        .createObjectNode()
        .put("error", problem.error())
        .put("detail", problem.detail());
    if (!problem.field().isEmpty()) body.put("field", problem.field());
    if (problem.problems().size() > 1) {
      ArrayNode each = body.putArray("problems");
      for (Problem one : problem.problems()) {
        ObjectNode entry = each.addObject().put("detail", one.message());
        if (one.located()) entry.put("field", one.field());
      }
    }
    return body;
  }
}

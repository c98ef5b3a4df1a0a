package dev.tidings.web;

import dev.tidings.InvalidInputException;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become HTTP answers. Client mistakes get a 4xx that says what is
 * wrong; anything else is a 500 whose body names a log reference and nothing internal.
 */
final class ErrorMapping {
  private static final Logger log = LoggerFactory.getLogger(ErrorMapping.class);

  private ErrorMapping() {}

  static void register(HttpRouting.Builder routing) {
    routing.error(ApiProblem.class, (request, response, problem) -> send(response, problem));
    routing.error(
        InvalidInputException.class,
        (request, response, invalid) ->
            send(response, ApiProblem.unprocessable(String.join("; ", invalid.problems()))));
    // Helidon's own refusals met while a route runs (a query it cannot decode): their status, our
    // body
    routing.error(HttpException.class, (request, response, refused) -> {
      Status status = refused.status();
      if (status.code() >= 500) {
        fail(request, response, refused);
        return;
      }
      send(
          response,
          new ApiProblem(
              status.code(),
              ServerErrors.error(status),
              refused.getMessage() == null ? status.reasonPhrase() : refused.getMessage()));
    });
    routing.error(Exception.class, ErrorMapping::fail);
  }

  private static void fail(ServerRequest request, ServerResponse response, Exception failure) {
    String reference = UUID.randomUUID().toString();
    log.error(
        "unhandled failure on {} {} (reference {})",
        request.prologue().method().text(),
        request.path().path(),
        reference,
        failure);
    send(
        response,
        new ApiProblem(
            500,
            "internal",
            "the server failed; the log has the details under reference " + reference));
  }

  static void send(ServerResponse response, ApiProblem problem) {
    if (response.isSent()) return;
    if (problem.status() == 401)
      response.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"tidings\"");
    if (problem.status() == 503) response.header(HeaderNames.RETRY_AFTER, "5");
    // The rest of an oversized body is not worth reading: tell the client this connection ends
    // here.
    if (problem.status() == 413) response.header(HeaderNames.CONNECTION, "close");
    JsonBodies.write(response, problem.status(), new ErrorBody(problem.error(), problem.detail()));
  }
}

package dev.tidings.web;

import dev.tidings.Json;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * The answers Helidon gives by itself, before any route runs (a malformed request line, a URI or header
 * block over its limits, an oversized entity): the same JSON {@link ErrorBody} as the API's own errors
 * instead of Helidon's plain text, so a client reads every error one way. Counted by status, since the
 * access log never sees these requests.
 */
final class ServerErrors implements DirectHandler {
  /** Longest part of Helidon's own message echoed back: it may quote what the client sent. */
  private static final int MAX_DETAIL = 200;

  private final MeterRegistry registry;

  private ServerErrors(MeterRegistry registry) {
    this.registry = registry;
  }

  static DirectHandlers handlers(MeterRegistry registry) {
    var handler = new ServerErrors(registry);
    var builder = DirectHandlers.builder();
    for (EventType type : EventType.values()) builder.addHandler(type, handler);
    return builder.build();
  }

  @Override
  public TransportResponse handle(
      TransportRequest request,
      EventType eventType,
      Status status,
      ServerResponseHeaders headers,
      String message) {
    if (status.code() == 400 && request.headers().contains(HeaderNames.CONTENT_ENCODING)) {
      // the server decodes no content coding: say so, as RFC 9110 asks, instead of a bare 400
      status = Status.UNSUPPORTED_MEDIA_TYPE_415;
      message = "a request body with a Content-Encoding is not accepted: send it without one";
      headers.set(HeaderNames.ACCEPT_ENCODING, "identity");
    }
    int code = status.code();
    registry
        .counter("tidings_http_server_refused_total", "status", Integer.toString(code))
        .increment();
    // a 5xx here is Helidon's own failure: its message is for the log, not for the client
    String detail = code >= 500 || message == null || message.isBlank()
        ? status.reasonPhrase()
        : message.length() > MAX_DETAIL ? message.substring(0, MAX_DETAIL) + "..." : message;
    byte[] body = Json.MAPPER.writeValueAsBytes(new ErrorBody(error(status), detail));
    headers.set(HeaderNames.CONTENT_TYPE, "application/json; charset=UTF-8");
    headers.set(HeaderNames.X_CONTENT_TYPE_OPTIONS, FramingFilter.NOSNIFF);
    headers.set(FramingFilter.REQUEST_ID, FramingFilter.requestId(request.headers()));
    return TransportResponse.builder()
        .status(status)
        .headers(headers)
        .keepAlive(eventType.keepAlive())
        .entity(body)
        .build();
  }

  /** The error code of the body: the API's own names where it has one, else the reason phrase. */
  static String error(Status status) {
    return switch (status.code()) {
      case 400 -> "bad_request";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 413 -> "payload_too_large";
      case 414 -> "uri_too_long";
      case 431 -> "request_header_fields_too_large";
      case 500 -> "internal";
      default -> status.reasonPhrase().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
    };
  }
}

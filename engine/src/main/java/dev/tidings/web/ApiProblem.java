package dev.tidings.web;

import dev.tidings.TidingsException;

/**
 * A request that cannot be served, with the status and the JSON error body the client gets
 * ({@code {"error": ..., "detail": ...}}). Thrown by handlers; mapped in one place.
 */
public final class ApiProblem extends TidingsException {
  private final int status;
  private final String error;
  private final String detail;

  public ApiProblem(int status, String error, String detail) {
    super(status + " " + error + ": " + detail);
    this.status = status;
    this.error = error;
    this.detail = detail;
  }

  public static ApiProblem badRequest(String detail) {
    return new ApiProblem(400, "bad_request", detail);
  }

  public static ApiProblem unauthorized(String detail) {
    return new ApiProblem(401, "unauthorized", detail);
  }

  public static ApiProblem forbidden(String detail) {
    return new ApiProblem(403, "forbidden", detail);
  }

  public static ApiProblem notFound(String detail) {
    return new ApiProblem(404, "not_found", detail);
  }

  public static ApiProblem conflict(String detail) {
    return new ApiProblem(409, "conflict", detail);
  }

  public static ApiProblem tooLarge(long limit) {
    return new ApiProblem(
        413,
        "payload_too_large",
        "the request body is larger than the limit of " + limit + " bytes");
  }

  public static ApiProblem unsupportedMediaType(String detail) {
    return new ApiProblem(415, "unsupported_media_type", detail);
  }

  public static ApiProblem unprocessable(String detail) {
    return new ApiProblem(422, "invalid", detail);
  }

  public static ApiProblem unavailable(String detail) {
    return new ApiProblem(503, "unavailable", detail);
  }

  public int status() {
    return status;
  }

  public String error() {
    return error;
  }

  @Override
  public String detail() {
    return detail;
  }
}

package dev.tidings.web;

import dev.tidings.ErrorKind;
import dev.tidings.Problem;
import dev.tidings.TidingsException;
import java.util.List;

/**
 * A request that cannot be served, with the status and the JSON error body the client gets
 * ({@code {"error": ..., "detail": ..., "field": ...}}, the field when a problem names one). Thrown
 * by handlers; mapped in one place.
 */
public final class ApiProblem extends TidingsException {
  private final int status;
  private final String error;
  private final String detail;
  private final List<Problem> problems;

  public ApiProblem(int status, String error, String detail) {
    this(status, error, detail, List.of());
  }

  private ApiProblem(int status, String error, String detail, List<Problem> problems) {
    super(status + " " + error + ": " + detail);
    this.status = status;
    this.error = error;
    this.detail = detail;
    this.problems = List.copyOf(problems);
  }

  /** The answer to a failure of {@code kind}, by the one status of each kind ({@link KindStatus}). */
  static ApiProblem of(ErrorKind kind, String detail, List<Problem> problems) {
    return new ApiProblem(KindStatus.of(kind), KindStatus.error(kind), detail, problems);
  }

  /** The field path of the first problem that names one, empty when none does. */
  public String field() {
    return problems.stream()
        .filter(Problem::located)
        .map(Problem::field)
        .findFirst()
        .orElse("");
  }

  /** Each problem with its field, when the answer has them; empty for a route's own answer. */
  public List<Problem> problems() {
    return problems;
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

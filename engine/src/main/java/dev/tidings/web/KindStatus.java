package dev.tidings.web;

import dev.tidings.ErrorKind;

/**
 * The one status each kind of failure is answered with: the API's JSON errors and the dashboard's
 * pages both ask here, so a refusal reads the same status wherever it is shown.
 */
public final class KindStatus {
  private KindStatus() {}

  public static int of(ErrorKind kind) {
    return switch (kind) {
      case NOT_FOUND -> 404;
      case CONFLICT -> 409;
      case INVALID -> 422;
      case UNAUTHENTICATED -> 401;
      case FORBIDDEN -> 403;
      case UNAVAILABLE -> 503;
      case INTERNAL -> 500;
    };
  }

  /** The {@code error} member of the API's JSON body for the kind. */
  static String error(ErrorKind kind) {
    return switch (kind) {
      case NOT_FOUND -> "not_found";
      case CONFLICT -> "conflict";
      case INVALID -> "invalid";
      case UNAUTHENTICATED -> "unauthorized";
      case FORBIDDEN -> "forbidden";
      case UNAVAILABLE -> "unavailable";
      case INTERNAL -> "internal";
    };
  }
}

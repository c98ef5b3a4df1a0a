package dev.tidings.web;

import java.io.IOException;

/** Thrown from inside a body stream once it passes its limit, so streaming readers stop at once. */
final class BodyTooLargeException extends IOException {
  private final long limit;

  BodyTooLargeException(long limit) {
    super("request body exceeds " + limit + " bytes");
    this.limit = limit;
  }

  long limit() {
    return limit;
  }
}

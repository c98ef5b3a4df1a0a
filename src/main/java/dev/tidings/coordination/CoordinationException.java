package dev.tidings.coordination;

import dev.tidings.TidingsException;

/** The coordination backend (Redis, or PostgreSQL for countdowns) failed or did not answer in time. */
public final class CoordinationException extends TidingsException {
  public CoordinationException(String message, Throwable cause) {
    super(message, cause);
  }

  public CoordinationException(String message) {
    super(message);
  }
}

package dev.tidings.coordination;

import dev.tidings.ErrorKind;
import dev.tidings.TidingsException;

/** The coordination backend (Redis, or PostgreSQL for countdowns) failed or did not answer in time. */
public final class CoordinationException extends TidingsException {
  public CoordinationException(String message, Throwable cause) {
    super(message, cause);
  }

  public CoordinationException(String message) {
    super(message);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.UNAVAILABLE;
  }

  /** The message may name the Redis URL; the caller learns only what is down. */
  @Override
  public String detail() {
    return "the coordination store (Redis) is unavailable";
  }
}

package dev.tidings.queue;

import dev.tidings.ErrorKind;
import dev.tidings.TidingsException;

/** The queue could not durably take a message (server down, confirm refused or timed out). */
public final class QueueUnavailableException extends TidingsException {
  public QueueUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public QueueUnavailableException(String message) {
    super(message);
  }

  @Override
  public ErrorKind kind() {
    return ErrorKind.UNAVAILABLE;
  }

  /** The message may name the broker's host or channel; the caller learns only what is down. */
  @Override
  public String detail() {
    return "the work queue is unavailable";
  }
}

package dev.tidings.queue;

import dev.tidings.TidingsException;

/** The queue could not durably take a message (server down, confirm refused or timed out). */
public final class QueueUnavailableException extends TidingsException {
  public QueueUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public QueueUnavailableException(String message) {
    super(message);
  }
}

package dev.tidings.queue;

import dev.tidings.TidingsException;

/** A message body that its topic's codec cannot read: a poison message, dead-lettered at once. */
public final class UndecodableMessageException extends TidingsException {
  private final String reason;

  public UndecodableMessageException(String reason, Throwable cause) {
    super(reason, cause);
    this.reason = reason;
  }

  public String reason() {
    return reason;
  }
}

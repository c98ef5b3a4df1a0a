package dev.tidings.queue;

import dev.tidings.TidingsException;

/** A queue was used (published to, consumed, measured) before anyone declared it. */
public final class UnknownQueueException extends TidingsException {
  public UnknownQueueException(String queue) {
    super(
        "queue '" + queue + "' is not declared; call WorkQueue.declare(QueueSpec) before using it");
  }
}

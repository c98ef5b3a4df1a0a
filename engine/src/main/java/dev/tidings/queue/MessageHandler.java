package dev.tidings.queue;

/** Handles one delivery; an exception counts as {@link Disposition.Retry}. */
@FunctionalInterface
public interface MessageHandler {
  Disposition handle(Delivery delivery) throws Exception;
}

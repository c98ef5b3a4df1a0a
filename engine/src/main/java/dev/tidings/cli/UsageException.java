package dev.tidings.cli;

import dev.tidings.TidingsException;

/** A command was asked for something it cannot do as asked; exits with status 2. */
public final class UsageException extends TidingsException {
  public UsageException(String message) {
    super(message);
  }
}

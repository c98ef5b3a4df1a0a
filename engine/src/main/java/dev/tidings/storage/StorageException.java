package dev.tidings.storage;

import dev.tidings.TidingsException;

public final class StorageException extends TidingsException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageException(String message) {
    super(message);
  }
}

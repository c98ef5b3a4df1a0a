package dev.tidings;

/** The one unchecked root of Tidings' own failures; subclasses live beside the feature that throws them. */
public class TidingsException extends RuntimeException {
  public TidingsException(String message) {
    super(message);
  }

  public TidingsException(String message, Throwable cause) {
    super(message, cause);
  }
}

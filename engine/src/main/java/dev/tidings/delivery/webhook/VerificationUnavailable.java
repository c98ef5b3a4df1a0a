package dev.tidings.delivery.webhook;

import dev.tidings.ErrorKind;
import dev.tidings.TidingsException;

/**
 * What a request needs to be verified cannot be had now (the provider's certificate host does not
 * answer): the answer is 503 so the provider retries, never a 2xx for an unverified request.
 */
public final class VerificationUnavailable extends TidingsException {
  public VerificationUnavailable(String message, Throwable cause) {
    super(message, cause);
  }

  public VerificationUnavailable(String message) {
    super(message);
  }

  /** The message names the provider's public certificate or confirmation URL, which the provider knows. */
  @Override
  public ErrorKind kind() {
    return ErrorKind.UNAVAILABLE;
  }
}

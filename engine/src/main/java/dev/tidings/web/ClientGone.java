package dev.tidings.web;

import io.helidon.common.buffers.DataReader;
import io.helidon.webserver.ServerConnectionException;

/**
 * Whether a failure is the client going away mid-request (its body ended before its declared length, its
 * connection was reset): the client's doing, answered as a bad request and never logged as the server's
 * failure, which would let anyone who can open a connection fill the error log.
 */
final class ClientGone {
  private static final int MAX_DEPTH = 16;

  private ClientGone() {}

  static boolean causedBy(Throwable failure) {
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++) {
      if (cause instanceof DataReader.InsufficientDataAvailableException
          || cause instanceof ServerConnectionException) return true;
      cause = cause.getCause();
    }
    return false;
  }
}

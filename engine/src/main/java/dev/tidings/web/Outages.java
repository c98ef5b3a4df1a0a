package dev.tidings.web;

import dev.tidings.ErrorKind;
import dev.tidings.TidingsException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import org.jdbi.v3.core.ConnectionException;
import org.jspecify.annotations.Nullable;

/**
 * Tells a dependency that cannot be used now from any other failure, wherever in the cause chain it
 * shows: a repository wraps the driver's failure, and the request still failed because the database
 * is gone, not because of a fault a retry cannot cure.
 */
final class Outages {
  private Outages() {}

  /** The dependency that is down, in words a client may read (never a host or URL); empty if none. */
  @SuppressWarnings(
      "ReferenceEquality") // identity on purpose: a cause that is its own cause ends it
  static Optional<String> unavailable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TidingsException known && known.kind() == ErrorKind.UNAVAILABLE)
        return Optional.of(known.detail());
      if (databaseUnreachable(cause)) return Optional.of("the database is unavailable");
      if (cause instanceof SQLException sql && rolledBackToResolveConflict(sql.getSQLState()))
        return Optional.of("the database rolled the request back to resolve a conflict with another"
            + " (nothing of it was written)");
      if (cause.getCause() == cause) break;
    }
    return Optional.empty();
  }

  /**
   * SQLSTATE 40001 serialization failure and 40P01 deadlock: PostgreSQL rolled the transaction back to
   * let a concurrent one go on. The request's writes are undone and the same request can succeed now, so
   * it is answered as a passing outage (503, Retry-After), never as the server's failure.
   */
  static boolean rolledBackToResolveConflict(@Nullable String state) {
    return "40001".equals(state) || "40P01".equals(state);
  }

  /**
   * JDBI could not open a handle, the pool had no connection to give within its timeout (HikariCP's
   * "connection is not available"), or PostgreSQL said the connection is lost or the server is going
   * down.
   */
  private static boolean databaseUnreachable(Throwable cause) {
    return cause instanceof ConnectionException
        || cause instanceof SQLTransientConnectionException
        || (cause instanceof SQLException sql && connectionState(sql.getSQLState()));
  }

  /**
   * SQLSTATE class 08 (connection exception), 57P01 admin shutdown, 57P02 crash shutdown and 57P03
   * cannot connect now (the server is starting or stopping).
   */
  static boolean connectionState(@Nullable String state) {
    if (state == null) return false;
    return state.startsWith("08")
        || state.equals("57P01")
        || state.equals("57P02")
        || state.equals("57P03");
  }
}

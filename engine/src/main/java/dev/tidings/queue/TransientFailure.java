package dev.tidings.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Tells a failure of what a handler depends on (the database down or restarting, a lost
 * connection, a serialization failure or deadlock, a pool or statement timeout, the queue itself
 * unavailable) from a failure caused by the messages: the first is retried as it is, the second is
 * isolated ({@link PoisonIsolation}). When in doubt a failure counts as caused by the messages, since
 * isolating costs a few more handler calls while retrying a poison message costs the whole batch.
 */
public final class TransientFailure {
  private TransientFailure() {}

  /** True when {@code failure}, or any cause of it, is one that trying again later may cure. */
  public static boolean is(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof InterruptedException
          || cause instanceof TimeoutException
          || cause instanceof IOException
          || cause instanceof UncheckedIOException
          || cause instanceof QueueUnavailableException
          // HikariCP's "connection is not available, request timed out" is an
          // SQLTransientConnectionException; SQLTimeoutException is a statement's timeout.
          || cause instanceof SQLTransientException
          || cause instanceof SQLRecoverableException) return true;
      if (cause instanceof SQLException sql && transientState(sql.getSQLState())) return true;
      if (cause.getCause() == cause) break;
    }
    return false;
  }

  /**
   * PostgreSQL's SQLSTATE classes that say nothing about the statement's data: 08 connection
   * exception, 40 transaction rollback (serialization failure, deadlock), 53 insufficient
   * resources, 57P operator intervention (shutdown, restart), 57014 a statement timeout or
   * cancel, 55P03 a lock timeout.
   */
  static boolean transientState(@Nullable String state) {
    if (state == null) return false;
    return state.startsWith("08")
        || state.startsWith("40")
        || state.startsWith("53")
        || state.startsWith("57P")
        || state.equals("57014")
        || state.equals("55P03");
  }
}

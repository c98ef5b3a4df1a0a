package dev.tidings.storage;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.jdbi.v3.core.ConnectionException;

/**
 * Tells a database that is out of reach (down, restarting, the network cut) from a statement that
 * failed on its own merits: the first is worth waiting out, the second is not.
 */
public final class Unreachable {
  private Unreachable() {}

  /** True when {@code failure}, or a cause of it, says the database could not be reached. */
  public static boolean database(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLTransientConnectionException
          || cause instanceof ConnectException
          || cause instanceof ConnectionException) return true;
      // class 08: connection exceptions; 57P01-57P03: the server is shutting down or starting;
      // 25006: a read-only transaction, i.e. a standby not yet promoted: a primary is on its way
      if (cause instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        if (state.startsWith("08")
            || state.equals("57P01")
            || state.equals("57P02")
            || state.equals("57P03")
            || state.equals("25006")) return true;
      }
      if (cause.getCause() == cause) break;
    }
    return false;
  }
}

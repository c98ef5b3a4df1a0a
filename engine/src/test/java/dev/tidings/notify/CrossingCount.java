package dev.tidings.notify;

import org.jdbi.v3.core.Jdbi;

/**
 * A statement notify must never run, kept for the check over executed SQL to catch: it counts the
 * audience's rows by a table name put together from pieces, which no scan of the sources' literals can
 * see. It lives with the tests only, in notify's package, so that its frame is notify's.
 */
public final class CrossingCount {
  private CrossingCount() {}

  public static long subscribers(Jdbi jdbi) {
    String table = "subscri" + "bers";
    return jdbi.withHandle(handle ->
        handle.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one());
  }
}

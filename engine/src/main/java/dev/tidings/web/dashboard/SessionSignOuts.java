package dev.tidings.web.dashboard;

import java.time.Instant;
import java.time.InstantSource;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jdbi.v3.core.Jdbi;

/**
 * The dashboard's table of signed-out sessions, shared by every node on the database: a session id
 * written here is refused until its cookie would have expired, and expired rows are purged at each
 * sign-out so the table holds at most 12 hours of them.
 */
public final class SessionSignOuts {
  private final Jdbi jdbi;
  private final InstantSource clock;

  public SessionSignOuts(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /** Records that {@code sessionId} was signed out, and purges the rows no cookie can still use. */
  void signOut(String sessionId, Instant expires) {
    jdbi.useTransaction(handle -> {
      handle
          .createUpdate("INSERT INTO dashboard_sign_outs (session_id, expires_at)"
              + " VALUES (:id, :expires) ON CONFLICT (session_id) DO NOTHING")
          .bind("id", sessionId)
          .bind("expires", OffsetDateTime.ofInstant(expires, ZoneOffset.UTC))
          .execute();
      handle
          .createUpdate("DELETE FROM dashboard_sign_outs WHERE expires_at < :now")
          .bind("now", OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC))
          .execute();
    });
  }

  boolean signedOut(String sessionId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT EXISTS (SELECT 1 FROM dashboard_sign_outs WHERE session_id = :id)")
        .bind("id", sessionId)
        .mapTo(Boolean.class)
        .one());
  }
}

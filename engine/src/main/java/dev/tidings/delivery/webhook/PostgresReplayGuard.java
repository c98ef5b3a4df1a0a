package dev.tidings.delivery.webhook;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;

/**
 * The replay memory in the {@code webhook_replays} table (V8): the primary key makes the first
 * insert win on any node, with no lock held beyond the one statement. Expired rows are purged by
 * whichever node claims a token after the last purge is a minute old.
 */
public final class PostgresReplayGuard implements ReplayGuard {
  private static final Duration PURGE_EVERY = Duration.ofMinutes(1);

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final AtomicReference<Instant> lastPurge = new AtomicReference<>(Instant.EPOCH);

  public PostgresReplayGuard(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  @Override
  public boolean claim(String provider, String token, Instant expiresAt) {
    purgeIfDue();
    return jdbi.withHandle(handle -> handle
            .createUpdate("INSERT INTO webhook_replays (provider, token, expires_at)"
                + " VALUES (:provider, :token, :expiresAt) ON CONFLICT DO NOTHING")
            .bind("provider", provider)
            .bind("token", token)
            .bind("expiresAt", expiresAt)
            .execute()
        == 1);
  }

  @Override
  public void release(String provider, String token) {
    jdbi.useHandle(handle -> handle
        .createUpdate("DELETE FROM webhook_replays WHERE provider = :provider AND token = :token")
        .bind("provider", provider)
        .bind("token", token)
        .execute());
  }

  /** Rows whose request would be refused as stale anyway; returns how many went. */
  public int purgeExpired() {
    Instant now = clock.instant();
    lastPurge.set(now);
    return jdbi.withHandle(handle -> handle
        .createUpdate("DELETE FROM webhook_replays WHERE expires_at < :now")
        .bind("now", now)
        .execute());
  }

  private void purgeIfDue() {
    Instant last = lastPurge.get();
    Instant now = clock.instant();
    if (Duration.between(last, now).compareTo(PURGE_EVERY) >= 0
        && lastPurge.compareAndSet(last, now)) purgeExpired();
  }
}

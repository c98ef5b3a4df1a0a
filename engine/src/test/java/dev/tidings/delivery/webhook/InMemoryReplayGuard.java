package dev.tidings.delivery.webhook;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/** A one-node replay memory for unit tests; {@code PostgresReplayGuardIT} tests the shared one. */
public final class InMemoryReplayGuard implements ReplayGuard {
  private final Set<String> seen = new HashSet<>();

  @Override
  public synchronized boolean claim(String provider, String token, Instant expiresAt) {
    return seen.add(provider + "/" + token);
  }

  @Override
  public synchronized void release(String provider, String token) {
    seen.remove(provider + "/" + token);
  }
}

package dev.tidings.delivery.webhook;

import java.time.Instant;

/**
 * Remembers the tokens of signed requests already taken, across every node, until the request could
 * no longer pass the freshness check anyway.
 */
public interface ReplayGuard {
  /** True for the first claim of {@code token}, false for every later one until it expires. */
  boolean claim(String provider, String token, Instant expiresAt);

  /**
   * Forgets a claim whose request was not taken after all (the queue refused it), so the provider's
   * retry of the same request is not mistaken for a replay.
   */
  void release(String provider, String token);
}

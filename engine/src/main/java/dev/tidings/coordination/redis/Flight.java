package dev.tidings.coordination.redis;

import dev.tidings.coordination.CoordinationException;
import java.util.concurrent.CompletableFuture;

/**
 * The one Redis interaction of this node for one key at a time: the first local caller starts it (the
 * leader), and every local caller of the same key waits on it rather than talking to Redis itself. It
 * ends once, with the key's value, with "try again" (the lock was released or expired, or a wake-up may
 * have been missed) or with a failure; a new flight starts after that.
 */
final class Flight {
  /** How a flight ended, for every caller waiting on it. */
  sealed interface End {
    record Value(String value) implements End {}

    record Retry() implements End {}

    record Failed(CoordinationException error) implements End {}
  }

  static final End RETRY = new End.Retry();

  /** The lock as granted: its exact value in Redis, and the fence within it. */
  record Grant(String lock, long fence) {}

  /** Unique per flight; a replayed acquire with the same token gets the same grant back. */
  final String token;

  final CompletableFuture<End> end = new CompletableFuture<>();

  /**
   * Offered the lock when this flight's acquire wins it. Exactly one side completes it: the acquire's
   * reply with the grant, or the leader leaving (deadline, or woken by {@link #end}) exceptionally; a
   * grant nobody takes is released at once.
   */
  final CompletableFuture<Grant> win = new CompletableFuture<>();

  Flight(String token) {
    this.token = token;
  }
}

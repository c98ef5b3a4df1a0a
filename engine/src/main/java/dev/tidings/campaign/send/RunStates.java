package dev.tidings.campaign.send;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/**
 * What workers believe a run's state is, read from the ledger at most once per TTL per run: workers
 * look between every two recipients, so a pause or cancel takes effect within the TTL at the cost of
 * about one query per second per run and node. Thread-safe.
 */
final class RunStates {
  private record Key(long campaignId, long runId) {}

  private final Ledger ledger;
  private final Cache<Key, String> seen;

  RunStates(Ledger ledger, Duration ttl) {
    this.ledger = ledger;
    // runs come and go: the bound only drops runs no worker has looked at lately
    this.seen = Caffeine.newBuilder()
        .maximumSize(10_000)
        .expireAfterWrite(ttl.isNegative() ? Duration.ZERO : ttl)
        .build();
  }

  /** The run's state as of at most one TTL ago; "ABSENT" when it has no ledger. */
  String state(long campaignId, long runId) {
    var key = new Key(campaignId, runId);
    String last = seen.getIfPresent(key);
    if (last != null) return last;
    String state = ledger.state(campaignId, runId).orElse("ABSENT");
    seen.put(key, state);
    return state;
  }

  /** Forgets what this node believed, after it changed the state itself. */
  void forget(long campaignId, long runId) {
    seen.invalidate(new Key(campaignId, runId));
  }
}

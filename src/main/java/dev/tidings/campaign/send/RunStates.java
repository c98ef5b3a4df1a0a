package dev.tidings.campaign.send;

import java.util.concurrent.ConcurrentHashMap;

/**
 * What workers believe a run's state is, read from the ledger at most once per TTL per run: workers
 * look between every two recipients, so a pause or cancel takes effect within the TTL at the cost of
 * about one query per second per run and node. Thread-safe.
 */
final class RunStates {
  private record Key(long campaignId, long runId) {}

  private record Seen(String state, long atNanos) {}

  private final Ledger ledger;
  private final long ttlNanos;
  private final ConcurrentHashMap<Key, Seen> seen = new ConcurrentHashMap<>();

  RunStates(Ledger ledger, java.time.Duration ttl) {
    this.ledger = ledger;
    this.ttlNanos = ttl.toNanos();
  }

  /** The run's state as of at most one TTL ago; "ABSENT" when it has no ledger. */
  String state(long campaignId, long runId) {
    var key = new Key(campaignId, runId);
    long now = System.nanoTime();
    Seen last = seen.get(key);
    if (last != null && now - last.atNanos() < ttlNanos) return last.state();
    String state = ledger.state(campaignId, runId).orElse("ABSENT");
    seen.put(key, new Seen(state, now));
    if (seen.size() > 10_000) seen.clear(); // runs come and go; an old entry is only a cache
    return state;
  }

  /** Forgets what this node believed, after it changed the state itself. */
  void forget(long campaignId, long runId) {
    seen.remove(new Key(campaignId, runId));
  }
}

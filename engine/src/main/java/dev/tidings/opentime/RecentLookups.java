package dev.tidings.opentime;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Answers of a lookup kept for a short while, so that the k slot requests of an email, and the emails
 * of one campaign, read a product or a subscriber's locale once rather than once each. Bounded by
 * count: a full cache drops the entries least likely to be asked for again, one at a time.
 */
final class RecentLookups<K, V> {
  /** An answer or a lookup still running: concurrent misses of one key find the same future. */
  private final AsyncCache<K, Optional<V>> entries;

  private final Function<K, Optional<V>> lookup;

  RecentLookups(Function<K, Optional<V>> lookup, Duration ttl, int capacity) {
    this(lookup, ttl, capacity, Ticker.systemTicker());
  }

  RecentLookups(Function<K, Optional<V>> lookup, Duration ttl, int capacity, Ticker ticker) {
    this.lookup = lookup;
    // a running lookup neither expires nor is evicted; its TTL starts when it answers
    this.entries = Caffeine.newBuilder()
        .maximumSize(capacity)
        .expireAfterWrite(ttl)
        .ticker(ticker)
        .buildAsync();
  }

  /**
   * The kept answer, or a fresh lookup; concurrent misses of one key (the k slots of a new email) share
   * one lookup. The lookup runs on the caller's thread, as a batched lookup expects; a failed one is
   * not kept.
   */
  Optional<V> get(K key) {
    var mine = new CompletableFuture<Optional<V>>();
    CompletableFuture<Optional<V>> kept = entries.asMap().putIfAbsent(key, mine);
    if (kept != null) return await(kept);
    try {
      Optional<V> value = lookup.apply(key);
      mine.complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    }
  }

  private static <V> Optional<V> await(CompletableFuture<Optional<V>> kept) {
    try {
      return kept.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) throw cause;
      throw e;
    }
  }
}

package dev.tidings.opentime;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Answers of a lookup kept for a short while, so that the k slot requests of an email, and the emails
 * of one campaign, read a product or a subscriber's locale once rather than once each. Bounded by
 * forgetting everything when full: cheap, and the next lookups refill what is still asked for.
 */
final class RecentLookups<K, V> {
  private record Entry<V>(Optional<V> value, long expiresAt) {}

  private final ConcurrentHashMap<K, Entry<V>> entries = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<K, CompletableFuture<Optional<V>>> inFlight =
      new ConcurrentHashMap<>();
  private final Function<K, Optional<V>> lookup;
  private final long ttlNanos;
  private final int capacity;

  RecentLookups(Function<K, Optional<V>> lookup, Duration ttl, int capacity) {
    this.lookup = lookup;
    this.ttlNanos = ttl.toNanos();
    this.capacity = capacity;
  }

  /**
   * The kept answer, or a fresh lookup; concurrent misses of one key (the k slots of a new email) share
   * one lookup.
   */
  Optional<V> get(K key) {
    long now = System.nanoTime();
    Entry<V> entry = entries.get(key);
    if (entry != null && now - entry.expiresAt() < 0) return entry.value();
    var mine = new CompletableFuture<Optional<V>>();
    CompletableFuture<Optional<V>> running = inFlight.putIfAbsent(key, mine);
    if (running != null) return awaitOther(running);
    try {
      Optional<V> value = lookup.apply(key);
      if (entries.size() >= capacity) entries.clear();
      entries.put(key, new Entry<>(value, now + ttlNanos));
      mine.complete(value);
      return value;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(key, mine);
    }
  }

  private static <V> Optional<V> awaitOther(CompletableFuture<Optional<V>> running) {
    try {
      return running.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) throw cause;
      throw e;
    }
  }
}

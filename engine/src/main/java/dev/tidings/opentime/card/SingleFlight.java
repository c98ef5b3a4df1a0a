package dev.tidings.opentime.card;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs the work for a key once while it is in flight: callers arriving meanwhile wait for the first
 * one's result. The k slots of an email are fetched together, often by several proxies at once, so
 * the same card is asked for many times within milliseconds.
 */
final class SingleFlight<K, V> {
  private final ConcurrentHashMap<K, CompletableFuture<V>> inFlight = new ConcurrentHashMap<>();

  V run(K key, Supplier<V> work) {
    var mine = new CompletableFuture<V>();
    var running = inFlight.putIfAbsent(key, mine);
    if (running != null) {
      try {
        return running.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException runtime) throw runtime;
        throw e;
      }
    }
    try {
      V value = work.get();
      mine.complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(key, mine);
    }
  }
}

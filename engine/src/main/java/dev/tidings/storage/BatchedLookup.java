package dev.tidings.storage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Point reads that many threads make at once, answered by one query per batch of keys rather than one
 * per key. No timer: a lookup starts at once when fewer than {@code maxInFlight} batches are running,
 * and otherwise joins the next batch, which starts as soon as one finishes. A lone caller pays nothing
 * for batching; under load, batches grow to what the store's round trip lets pile up, and the per-query
 * cost (pool, statement, round trip) is paid once per batch. Concurrent lookups of one key share its
 * answer. Also fits conditional writes answered per key (an update that returns the rows it changed).
 * Thread-safe; loaders run on virtual threads of their own.
 */
public final class BatchedLookup<K, V> {
  private final Function<Set<K>, Map<K, V>> loadAll;
  private final int maxBatch;
  private final int maxInFlight;
  private final String name;
  private final ReentrantLock lock = new ReentrantLock();
  /** Keys waiting for a batch, in arrival order. Guarded by {@link #lock}. */
  private final LinkedHashMap<K, CompletableFuture<Optional<V>>> waiting = new LinkedHashMap<>();
  /** Guarded by {@link #lock}. */
  private int running;

  /**
   * @param loadAll answers a batch: the values found for the keys it is given; a key it leaves out
   *     has no value
   */
  public BatchedLookup(
      String name, Function<Set<K>, Map<K, V>> loadAll, int maxBatch, int maxInFlight) {
    if (maxBatch < 1 || maxInFlight < 1)
      throw new IllegalArgumentException("maxBatch and maxInFlight must be at least 1");
    this.name = name;
    this.loadAll = loadAll;
    this.maxBatch = maxBatch;
    this.maxInFlight = maxInFlight;
  }

  /** The key's value; waits for its batch. A failed batch fails every lookup in it. */
  public Optional<V> get(K key) {
    CompletableFuture<Optional<V>> answer;
    boolean startLoader = false;
    lock.lock();
    try {
      answer = waiting.get(key);
      if (answer == null) {
        answer = new CompletableFuture<>();
        waiting.put(key, answer);
      }
      if (running < maxInFlight) {
        running++;
        startLoader = true;
      }
    } finally {
      lock.unlock();
    }
    if (startLoader) Thread.ofVirtual().name(name + " lookups").start(this::drain);
    try {
      return answer.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) throw cause;
      throw e;
    }
  }

  /** Loads batches until nobody is waiting. */
  private void drain() {
    while (true) {
      Map<K, CompletableFuture<Optional<V>>> batch = new LinkedHashMap<>();
      lock.lock();
      try {
        var keys = waiting.entrySet().iterator();
        while (keys.hasNext() && batch.size() < maxBatch) {
          var next = keys.next();
          batch.put(next.getKey(), next.getValue());
          keys.remove();
        }
        if (batch.isEmpty()) {
          running--;
          return;
        }
      } finally {
        lock.unlock();
      }
      try {
        Map<K, V> found = loadAll.apply(batch.keySet());
        batch.forEach((key, answer) -> answer.complete(Optional.ofNullable(found.get(key))));
      } catch (RuntimeException | Error e) {
        batch.values().forEach(answer -> answer.completeExceptionally(e));
      }
    }
  }
}

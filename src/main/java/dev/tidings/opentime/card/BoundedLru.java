package dev.tidings.opentime.card;

import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * A least-recently-used map bounded by the total weight of its values (a count when every value
 * weighs 1, bytes when the weight is a size). Reads and writes are a few pointer moves, so one lock is
 * cheaper than anything cleverer at the rates the image slots see.
 */
final class BoundedLru<K, V> {
  private final long capacity;
  private final ToLongFunction<V> weigher;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long weight;

  BoundedLru(long capacity, ToLongFunction<V> weigher) {
    if (capacity <= 0) throw new IllegalArgumentException("capacity must be positive");
    this.capacity = capacity;
    this.weigher = weigher;
  }

  Optional<V> get(K key) {
    lock.lock();
    try {
      return Optional.ofNullable(entries.get(key));
    } finally {
      lock.unlock();
    }
  }

  /** Stores the value unless it alone outweighs the whole capacity, evicting the oldest to fit. */
  void put(K key, V value) {
    long valueWeight = weigher.applyAsLong(value);
    if (valueWeight > capacity) return;
    lock.lock();
    try {
      V previous = entries.put(key, value);
      if (previous != null) weight -= weigher.applyAsLong(previous);
      weight += valueWeight;
      var eldest = entries.entrySet().iterator();
      while (weight > capacity && eldest.hasNext()) {
        var entry = eldest.next();
        weight -= weigher.applyAsLong(entry.getValue());
        eldest.remove();
      }
    } finally {
      lock.unlock();
    }
  }

  long weight() {
    lock.lock();
    try {
      return weight;
    } finally {
      lock.unlock();
    }
  }
}

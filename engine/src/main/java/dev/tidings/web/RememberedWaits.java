package dev.tidings.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The waits one node remembers, by bucket, at most {@code capacity} of them. When full, the waits
 * that are over go first, then the oldest remembered: a flood of new addresses pushes out the
 * earliest, while the newest, the ones hammering now, are answered without asking the limiter. Each
 * wait forgotten before its end is counted in {@value #FORGOTTEN}{@code _total}; such a bucket is
 * refused again by the shared count on its next failure, at one more round trip.
 */
final class RememberedWaits {
  static final String FORGOTTEN = "tidings_auth_waits_forgotten";

  private final int capacity;
  private final InstantSource clock;
  private final Counter forgotten;
  /** In the order remembered; guarded by itself (failures are rare, the lock is short). */
  private final LinkedHashMap<String, Instant> until = new LinkedHashMap<>();

  RememberedWaits(int capacity, InstantSource clock, MeterRegistry registry) {
    if (capacity < 1) throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
    this.capacity = capacity;
    this.clock = clock;
    this.forgotten = Counter.builder(FORGOTTEN)
        .description("Waits for failed credentials a node forgot before their end, being full")
        .register(registry);
  }

  /** How long {@code bucket} still waits, if it does. */
  Optional<Duration> waiting(String bucket) {
    Instant now = clock.instant();
    synchronized (until) {
      Instant end = until.get(bucket);
      if (end == null) return Optional.empty();
      if (!end.isAfter(now)) {
        until.remove(bucket);
        return Optional.empty();
      }
      return Optional.of(Duration.between(now, end));
    }
  }

  void remember(String bucket, Instant end) {
    Instant now = clock.instant();
    synchronized (until) {
      // re-inserted, so that a bucket remembered again counts as the newest
      until.remove(bucket);
      if (until.size() >= capacity) until.values().removeIf(other -> !other.isAfter(now));
      Iterator<Map.Entry<String, Instant>> oldest = until.entrySet().iterator();
      while (until.size() >= capacity && oldest.hasNext()) {
        oldest.next();
        oldest.remove();
        forgotten.increment();
      }
      until.put(bucket, end);
    }
  }

  int size() {
    synchronized (until) {
      return until.size();
    }
  }
}

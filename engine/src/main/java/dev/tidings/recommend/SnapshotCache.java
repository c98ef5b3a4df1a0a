package dev.tidings.recommend;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link CatalogSnapshot}. The first caller builds it; after that a caller that finds it
 * older than the refresh interval starts one rebuild in the background and carries on with the old one, so
 * the request path never waits for a scan. Refreshing only while in use needs no thread to stop.
 */
final class SnapshotCache {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotCache.class);

  private final Supplier<CatalogSnapshot> build;
  private final InstantSource clock;
  private final Duration refreshEvery;
  private final ReentrantLock firstBuild = new ReentrantLock();
  private final AtomicBoolean rebuilding = new AtomicBoolean();
  private volatile @Nullable CatalogSnapshot current;
  private volatile Instant nextRefresh = Instant.MIN;

  SnapshotCache(Supplier<CatalogSnapshot> build, InstantSource clock, Duration refreshEvery) {
    this.build = build;
    this.clock = clock;
    this.refreshEvery = refreshEvery;
  }

  /**
   * The current snapshot, built first when there is none.
   *
   * @throws RuntimeException when there is none and building it fails
   */
  CatalogSnapshot get() {
    CatalogSnapshot snapshot = current;
    if (snapshot == null) return buildFirst();
    if (!clock.instant().isBefore(nextRefresh) && rebuilding.compareAndSet(false, true))
      Thread.ofVirtual().name("recommend-refresh").start(this::rebuildInBackground);
    return snapshot;
  }

  /** Rebuilds now, on the caller's thread. */
  void refresh() {
    install(build.get());
  }

  private CatalogSnapshot buildFirst() {
    firstBuild.lock();
    try {
      CatalogSnapshot snapshot = current;
      if (snapshot != null) return snapshot;
      snapshot = build.get();
      install(snapshot);
      return snapshot;
    } finally {
      firstBuild.unlock();
    }
  }

  private void rebuildInBackground() {
    try {
      install(build.get());
    } catch (RuntimeException e) {
      // keep serving the old snapshot;
      // try again after another interval rather than on every request
      nextRefresh = clock.instant().plus(refreshEvery);
      LOG.warn(
          "recommendations: refreshing popularity and the catalogue failed; keeping the old one",
          e);
    } finally {
      rebuilding.set(false);
    }
  }

  private void install(CatalogSnapshot snapshot) {
    current = snapshot;
    nextRefresh = snapshot.takenAt().plus(refreshEvery);
  }
}

package dev.tidings.journeys;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The journeys that are not drafts and the versions people are on, as every look at an event or a
 * person needs them: read at most once a second (a state change is seen within it), versions kept
 * since a saved version never changes.
 */
final class LiveJourneys {
  private static final Object ALL = new Object();
  private final LoadingCache<Object, List<JourneyStore.Live>> live;
  private final LoadingCache<VersionKey, Optional<Journey>> versions;

  private record VersionKey(long id, int version) {}

  LiveJourneys(JourneyStore store) {
    this.live =
        Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).build(key -> store.live());
    this.versions = Caffeine.newBuilder()
        .maximumSize(10_000)
        .build(key -> store.version(key.id(), key.version()).map(JourneyStore.Saved::journey));
  }

  List<JourneyStore.Live> all() {
    return live.get(ALL);
  }

  Optional<JourneyStore.Live> of(long id) {
    for (JourneyStore.Live journey : all()) if (journey.id() == id) return Optional.of(journey);
    return Optional.empty();
  }

  Optional<Journey> version(long id, int version) {
    return versions.get(new VersionKey(id, version));
  }

  /** Forgets the states read, after this node changed one. */
  void refresh() {
    live.invalidateAll();
  }
}

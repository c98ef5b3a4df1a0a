package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityBacklog;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.StoredEvent;
import dev.tidings.storage.AdvisoryLock;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Counts the stored events into the aggregates as they arrive, off the intake's path: each round
 * claims a batch of waiting events, sums what the enabled aggregations add per key, writes one change
 * per key and deletes the claims, all in one transaction. An event is counted exactly once however
 * many nodes count (claims skip each other's rows), a failed round counts nothing and its events wait
 * for the next, and the bigger the backlog the more events share a key's write.
 */
public final class BacklogAggregation {
  /** Shared by every counting round, taken whole by a rebuild. */
  private static final AdvisoryLock REBUILD_LOCK = AdvisoryLock.AGGREGATION_REBUILD;

  private final Jdbi jdbi;
  private final AggregationDefinitions definitions;
  private final AggregateStore store;
  private final CountingMetrics metrics;

  /** {@code registry}: where rounds are counted ({@link CountingMetrics}). */
  public BacklogAggregation(
      Jdbi jdbi, AggregationDefinitions definitions, AggregateStore store, MeterRegistry registry) {
    this.jdbi = jdbi;
    this.definitions = definitions;
    this.store = store;
    this.metrics = new CountingMetrics(registry);
  }

  /** One round of up to {@code max} events; returns how many it counted (0: none waiting). */
  public int countOnce(int max) {
    if (max < 1) throw new IllegalArgumentException("max must be >= 1, got " + max);
    long started = System.nanoTime();
    return jdbi.inTransaction(handle -> {
      if (!sharedRound(handle)) return 0; // a rebuild holds the aggregates
      // A crash that loses this commit loses its claims with it: the events are counted again
      // later, so the round need not wait for the disk.
      handle.execute("SET LOCAL synchronous_commit = off");
      List<StoredEvent> claimed = ActivityBacklog.claim(handle, max);
      if (claimed.isEmpty()) return 0;
      Written written = count(handle, claimed, definitions.enabled());
      metrics.counted(
          claimed.size(),
          written.aggregates(),
          written.people(),
          Duration.ofNanos(System.nanoTime() - started));
      return claimed.size();
    });
  }

  /** Events stored and not yet counted, on every node. */
  public long waiting() {
    return jdbi.withHandle(ActivityBacklog::waiting);
  }

  /** How long the oldest event still waiting to be counted has waited; zero when none waits. */
  public Duration lag(Instant now) {
    return jdbi.withHandle(ActivityBacklog::oldestWaiting)
        .map(arrived -> Duration.between(arrived, now))
        .filter(waited -> !waited.isNegative())
        .orElse(Duration.ZERO);
  }

  /**
   * Counts the events stored before now again for one aggregation: its aggregates are deleted, then
   * every event counted so far is counted into it, a batch per transaction, while counting rounds wait.
   * Events still waiting are left to the rounds, which count them for every enabled aggregation. For an
   * aggregation added after events arrived, or changed; a rebuild that fails part-way is run again.
   *
   * @param progress told how many events it has counted, after each batch
   * @return how many events it counted
   */
  public long rebuild(String name, int batch, LongConsumer progress) {
    AggregationDefinition definition = definitions.reload().stream()
        .filter(d -> d.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no enabled aggregation named '" + name
            + "'; enabled: "
            + definitions.enabled().stream().map(AggregationDefinition::name).toList()));
    try (Handle locked = jdbi.open()) {
      locked
          .createQuery("SELECT count(pg_advisory_lock(:lock))")
          .bind("lock", REBUILD_LOCK.key())
          .mapTo(Long.class)
          .one();
      try {
        store.deleteAggregation(definition.name(), definition.algorithm());
        long counted = 0;
        long after = 0;
        while (true) {
          long from = after;
          List<StoredEvent> events =
              jdbi.inTransaction(handle -> ActivityBacklog.counted(handle, from, batch));
          if (events.isEmpty()) return counted;
          jdbi.useTransaction(handle -> count(handle, events, List.of(definition)));
          counted += events.size();
          after = events.getLast().seq();
          progress.accept(counted);
        }
      } finally {
        locked
            .createQuery("SELECT pg_advisory_unlock(:lock)")
            .bind("lock", REBUILD_LOCK.key())
            .mapTo(Boolean.class)
            .one();
      }
    }
  }

  /**
   * Counts stored events into the aggregates in the caller's transaction, with the enabled
   * aggregations: what a round does with its claims, for a caller that counts as it stores instead.
   */
  public void countNow(Handle handle, List<StoredEvent> events) {
    count(handle, events, definitions.enabled());
  }

  /** Rows a round wrote: aggregates (summed per key), and people (each touch it offered). */
  private record Written(int aggregates, int people) {}

  private Written count(
      Handle handle, List<StoredEvent> events, List<AggregationDefinition> counting) {
    if (counting.isEmpty()) return new Written(0, 0);
    Map<String, ItemFacts> facts =
        ItemFacts.of(handle, events.stream().map(e -> e.event().itemId()).toList());
    var sessionIds = events.stream()
        .map(StoredEvent::event)
        .map(ActivityEvent::sessionId)
        .flatMap(Optional::stream)
        .distinct()
        .toList();
    var sessions = new SessionHistory(ActivityBacklog.sessions(handle, sessionIds));
    Deltas.Batch batch = Deltas.batch(
        events,
        counting,
        item -> Objects.requireNonNullElse(facts.get(item), ItemFacts.UNKNOWN),
        sessions);
    // people counted by another round (committed, or committing before this insert returns) are
    // not new here: the primary key of aggregate_people decides
    Map<FlatKey, Double> sums =
        batch.with(store.people().firsts(handle, batch.people().keySet()));
    store.addFlat(handle, sums);
    return new Written(sums.size(), batch.people().size());
  }

  private static boolean sharedRound(Handle handle) {
    return handle
        .createQuery("SELECT pg_try_advisory_xact_lock_shared(:lock)")
        .bind("lock", REBUILD_LOCK.key())
        .mapTo(Boolean.class)
        .one();
  }
}

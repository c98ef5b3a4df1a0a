package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityBacklog;
import dev.tidings.activity.ActivityBacklog.SessionEvent;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.StoredEvent;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Counts events into aggregates held in memory by the rules a counting round follows (the same
 * {@link Deltas}: people once per key and day, items paired with what their session held before them,
 * at most {@link ActivityBacklog#MAX_SESSION_EVENTS} events of a session), for replaying a history
 * without a database: the recommender's evaluation counts its training events here, so what it scores
 * is what a node would read after counting the same events. Not thread-safe; events in stored order.
 */
public final class MemoryCounting {
  private final List<AggregationDefinition> definitions;
  private final Function<String, ItemFacts> items;
  private final Map<FlatKey, Double> totals = new HashMap<>();
  private final Set<DistinctPeople.Touch> counted = new HashSet<>();
  private final Map<String, List<SessionEvent>> sessions = new HashMap<>();
  private long seq;

  /** {@code items}: what the catalogue says of an item ({@link ItemFacts#UNKNOWN} when nothing). */
  public MemoryCounting(
      List<AggregationDefinition> definitions, Function<String, ItemFacts> items) {
    this.definitions = List.copyOf(definitions);
    this.items = items;
  }

  /** Counts the events, taken as stored in this order after every event counted before. */
  public void count(List<ActivityEvent> events) {
    var stored = new ArrayList<StoredEvent>(events.size());
    for (ActivityEvent event : events) {
      var one = new StoredEvent(++seq, event);
      stored.add(one);
      event.sessionId().ifPresent(session -> {
        List<SessionEvent> held = sessions.computeIfAbsent(session, s -> new ArrayList<>());
        if (held.size() < ActivityBacklog.MAX_SESSION_EVENTS)
          held.add(new SessionEvent(one.seq(), event.type(), event.itemId()));
      });
    }
    Deltas.Batch batch = Deltas.batch(
        stored,
        definitions,
        item -> Objects.requireNonNullElse(items.apply(item), ItemFacts.UNKNOWN),
        new SessionHistory(sessions));
    var firsts = new HashSet<DistinctPeople.Touch>();
    for (DistinctPeople.Touch touch : batch.people().keySet())
      if (counted.add(touch)) firsts.add(touch);
    batch.with(firsts).forEach((key, value) -> totals.merge(key, value, Double::sum));
  }

  /** Every aggregate counted so far, by key: a copy, as the counts stand now. */
  public Map<AggregateKey, Double> totals() {
    var typed = HashMap.<AggregateKey, Double>newHashMap(totals.size());
    totals.forEach((key, value) -> typed.put(key.toKey(), value));
    return typed;
  }

  /**
   * Forgets who was counted on the days before {@code day} (the people measure's memory, which a
   * replay in time order no longer needs for them): the totals stay. What the database does when it
   * drops a day partition.
   */
  public void forgetPeopleBefore(LocalDate day) {
    counted.removeIf(touch -> touch.day().isBefore(day));
  }
}

package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.StoredEvents;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Counts stored events into the aggregates as they arrive, in the transaction that stores them: an
 * event is counted once, a replay never, and a failed request counts nothing. The catalog tells each
 * event's brand and category; an item it does not know only misses the aggregations that need them.
 */
public final class Aggregation implements StoredEvents {
  private final AggregationDefinitions definitions;
  private final AggregateStore store;

  public Aggregation(AggregationDefinitions definitions, AggregateStore store) {
    this.definitions = definitions;
    this.store = store;
  }

  @Override
  public void stored(Handle handle, List<ActivityEvent> events) {
    List<AggregationDefinition> enabled = definitions.enabled();
    if (events.isEmpty() || enabled.isEmpty()) return;
    Map<String, ItemFacts> facts = itemFacts(handle, events);
    store.add(
        handle, Deltas.of(events, enabled, item -> facts.getOrDefault(item, ItemFacts.UNKNOWN)));
  }

  private static Map<String, ItemFacts> itemFacts(Handle handle, List<ActivityEvent> events) {
    var facts = new HashMap<String, ItemFacts>();
    handle
        .createQuery("SELECT id, brand, category FROM products WHERE id = ANY(:ids)")
        .bindArray(
            "ids",
            String.class,
            events.stream().map(ActivityEvent::itemId).distinct().toList())
        .map((rows, context) -> Map.entry(
            rows.getString(1),
            new ItemFacts(
                Optional.ofNullable(rows.getString(2)), Optional.ofNullable(rows.getString(3)))))
        .forEach(entry -> facts.put(entry.getKey(), entry.getValue()));
    return facts;
  }
}

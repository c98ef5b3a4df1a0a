package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.StoredEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a batch of events adds to the aggregates, summed per key before anything is written: popular
 * items and busy users share keys across a batch, so the store sees one change per key, not per event.
 */
public final class Deltas {
  private Deltas() {}

  /** Stored events, each paired with the items its session held before it. */
  static Map<AggregateKey, Double> of(
      List<StoredEvent> events,
      List<AggregationDefinition> definitions,
      Function<String, ItemFacts> items,
      SessionHistory sessions) {
    var sums = new HashMap<AggregateKey, Double>();
    for (StoredEvent stored : events) {
      ActivityEvent event = stored.event();
      add(sums, event, definitions, items.apply(event.itemId()), sessions.partnersOf(stored));
    }
    return sums;
  }

  private static void add(
      Map<AggregateKey, Double> sums,
      ActivityEvent event,
      List<AggregationDefinition> definitions,
      ItemFacts item,
      SessionPartners partners) {
    for (AggregationDefinition definition : definitions) {
      double amount = definition.measure().of(event);
      if (amount == 0) continue;
      for (AggregateKey key : definition.keysFor(event, item, partners))
        sums.merge(key, amount, Double::sum);
    }
  }
}

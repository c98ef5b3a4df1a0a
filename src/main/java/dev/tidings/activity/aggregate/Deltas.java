package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
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

  public static Map<AggregateKey, Double> of(
      List<ActivityEvent> events,
      List<AggregationDefinition> definitions,
      Function<String, ItemFacts> items) {
    var sums = new HashMap<AggregateKey, Double>();
    for (ActivityEvent event : events) {
      ItemFacts item = items.apply(event.itemId());
      for (AggregationDefinition definition : definitions) {
        double amount = definition.measure().of(event);
        if (amount == 0) continue;
        for (AggregateKey key : definition.keysFor(event, item))
          sums.merge(key, amount, Double::sum);
      }
    }
    return sums;
  }
}

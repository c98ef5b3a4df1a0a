package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.StoredEvent;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What a batch of events adds to the aggregates, summed per key before anything is written: popular
 * items and busy users share keys across a batch, so the store sees one change per key, not per event.
 * An aggregation that counts {@link Measure#PEOPLE} adds one for a person's first event on a key a
 * day: the batch keeps each person's first touch with its keys, and the round adds those whose touch
 * {@link DistinctPeople} finds new.
 */
public final class Deltas {
  private Deltas() {}

  /**
   * A batch's sums, and its people-measured touches (each person's first event on a key a day in the
   * batch) with the keys each would add one to.
   */
  record Batch(
      Map<AggregateKey, Double> sums, Map<DistinctPeople.Touch, List<AggregateKey>> people) {
    /** The sums with one added for each touch in {@code firsts}. */
    Map<AggregateKey, Double> with(Set<DistinctPeople.Touch> firsts) {
      for (DistinctPeople.Touch touch : firsts)
        for (AggregateKey key : people.getOrDefault(touch, List.of()))
          sums.merge(key, 1.0, Double::sum);
      return sums;
    }
  }

  /**
   * Stored events, each paired with the items its session held before it, summed per key; each
   * person counted once per key and day within the batch (no one counted before it).
   */
  static Map<AggregateKey, Double> of(
      List<StoredEvent> events,
      List<AggregationDefinition> definitions,
      Function<String, ItemFacts> items,
      SessionHistory sessions) {
    Batch batch = batch(events, definitions, items, sessions);
    return batch.with(batch.people().keySet());
  }

  static Batch batch(
      List<StoredEvent> events,
      List<AggregationDefinition> definitions,
      Function<String, ItemFacts> items,
      SessionHistory sessions) {
    var batch = new Batch(new HashMap<>(), new LinkedHashMap<>());
    for (StoredEvent stored : events) {
      ActivityEvent event = stored.event();
      add(batch, event, definitions, items.apply(event.itemId()), sessions.partnersOf(stored));
    }
    return batch;
  }

  private static void add(
      Batch batch,
      ActivityEvent event,
      List<AggregationDefinition> definitions,
      ItemFacts item,
      SessionPartners partners) {
    for (AggregationDefinition definition : definitions) {
      double amount = definition.measure().of(event);
      if (amount == 0) continue;
      List<AggregateKey> keys = definition.keysFor(event, item, partners);
      if (definition.measure() == Measure.PEOPLE) {
        if (!keys.isEmpty()) touch(batch, event, keys);
        continue;
      }
      for (AggregateKey key : keys) batch.sums().merge(key, amount, Double::sum);
    }
  }

  /** One touch per hash key of the event's keys (its periods share one), the first one kept. */
  private static void touch(Batch batch, ActivityEvent event, List<AggregateKey> keys) {
    var day = event.timestamp().atZone(ZoneOffset.UTC).toLocalDate();
    var byHash = new LinkedHashMap<String, List<AggregateKey>>();
    for (AggregateKey key : keys)
      byHash.computeIfAbsent(key.hashKey(), hash -> new ArrayList<>(4)).add(key);
    byHash.forEach((hash, periods) ->
        batch.people().putIfAbsent(new DistinctPeople.Touch(day, hash, event.userId()), periods));
  }
}

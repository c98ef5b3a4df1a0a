package dev.tidings.activity.aggregate;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.StoredEvent;
import java.time.LocalDate;
import java.time.ZoneOffset;
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
 * day: the batch keeps each person's first touch with its periods, and the round adds those whose
 * touch {@link DistinctPeople} finds new. Keys are summed as {@link FlatKey}s, their text built once per
 * event and aggregation.
 */
public final class Deltas {
  private Deltas() {}

  /**
   * A batch's sums, and its people-measured touches (each person's first event on a hash key a day in
   * the batch) with the periods each would add one to.
   */
  record Batch(Map<FlatKey, Double> sums, Map<DistinctPeople.Touch, List<KeyPart.Bucket>> people) {
    /** The sums with one added for each touch in {@code firsts}. */
    Map<FlatKey, Double> with(Set<DistinctPeople.Touch> firsts) {
      for (DistinctPeople.Touch touch : firsts)
        for (KeyPart.Bucket period : people.getOrDefault(touch, List.of()))
          sums.merge(new FlatKey(touch.hashKey(), period), 1.0, Double::sum);
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
    var typed = new HashMap<AggregateKey, Double>();
    batch.with(batch.people().keySet()).forEach((key, value) -> typed.put(key.toKey(), value));
    return typed;
  }

  static Batch batch(
      List<StoredEvent> events,
      List<AggregationDefinition> definitions,
      Function<String, ItemFacts> items,
      SessionHistory sessions) {
    var batch = new Batch(
        HashMap.newHashMap(events.size() * 4), LinkedHashMap.newLinkedHashMap(events.size()));
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
    LocalDate day = null;
    for (AggregationDefinition definition : definitions) {
      double amount = definition.measure().of(event);
      if (amount == 0) continue;
      if (definition.measure() == Measure.PEOPLE) {
        // one touch per hash key (its periods share one), the first one kept
        if (day == null) day = event.timestamp().atZone(ZoneOffset.UTC).toLocalDate();
        LocalDate touched = day;
        definition.eachKey(
            event,
            item,
            partners,
            (hash, periods) -> batch
                .people()
                .putIfAbsent(new DistinctPeople.Touch(touched, hash, event.userId()), periods));
        continue;
      }
      definition.eachKey(event, item, partners, (hash, periods) -> {
        for (KeyPart.Bucket period : periods)
          batch.sums().merge(new FlatKey(hash, period), amount, Double::sum);
      });
    }
  }
}

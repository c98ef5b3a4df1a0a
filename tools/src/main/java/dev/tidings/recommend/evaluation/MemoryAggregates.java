package dev.tidings.recommend.evaluation;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.recommend.blend.AggregateReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Counted aggregates held in memory with the store's read semantics (hash key prefixes, periods
 * between bounds as text, key order): what the live recommender reads in a replay. Read-only once
 * built, so any number of threads may read.
 */
final class MemoryAggregates implements AggregateReader {
  private final NavigableMap<String, List<AggregateStore.Entry>> byHash = new TreeMap<>();

  MemoryAggregates(Map<AggregateKey, Double> totals) {
    totals.forEach((key, value) -> {
      if (value != 0)
        byHash
            .computeIfAbsent(key.hashKey(), h -> new ArrayList<>(2))
            .add(new AggregateStore.Entry(key, value));
    });
    byHash
        .values()
        .forEach(periods -> periods.sort(Comparator.comparing(e -> e.key().rangeKey())));
  }

  @Override
  public List<AggregateStore.Entry> read(
      String hashPrefix, String fromRange, String toRange, int limit) {
    return collect(
        byHash.subMap(hashPrefix, true, hashPrefix + Character.MAX_VALUE, false),
        fromRange,
        toRange,
        limit);
  }

  @Override
  public List<AggregateStore.Entry> under(
      AggregateKey key, String fromRange, String toRange, int limit) {
    String exact = key.format();
    var out = new ArrayList<AggregateStore.Entry>();
    List<AggregateStore.Entry> own = byHash.get(exact);
    if (own != null) out.addAll(collect(Map.of(exact, own), fromRange, toRange, limit));
    out.addAll(collect(
        byHash.subMap(exact + ":", true, exact + ":" + Character.MAX_VALUE, false),
        fromRange,
        toRange,
        limit - out.size()));
    return out;
  }

  private static List<AggregateStore.Entry> collect(
      Map<String, List<AggregateStore.Entry>> hashes, String from, String to, int limit) {
    var out = new ArrayList<AggregateStore.Entry>();
    for (List<AggregateStore.Entry> periods : hashes.values()) {
      for (AggregateStore.Entry entry : periods) {
        if (out.size() >= limit) return out;
        String range = entry.key().rangeKey();
        if ((from.isEmpty() || range.compareTo(from) >= 0)
            && (to.isEmpty() || range.compareTo(to) <= 0)) out.add(entry);
      }
    }
    return out;
  }
}

package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Aggregates in memory with {@link AggregateStore}'s read semantics, counting the reads. */
final class InMemoryAggregates implements AggregateReader {
  private final Map<AggregateKey, Double> values = new ConcurrentHashMap<>();
  final AtomicInteger userReads = new AtomicInteger();

  InMemoryAggregates add(AggregateKey key, double value) {
    values.merge(key, value, Double::sum);
    return this;
  }

  @Override
  public List<AggregateStore.Entry> read(
      String hashPrefix, String fromRange, String toRange, int limit) {
    return select(hash -> hash.startsWith(hashPrefix), fromRange, toRange, limit);
  }

  @Override
  public List<AggregateStore.Entry> under(
      AggregateKey key, String fromRange, String toRange, int limit) {
    userReads.incrementAndGet();
    String exact = key.format();
    return select(
        hash -> hash.equals(exact) || hash.startsWith(exact + ":"), fromRange, toRange, limit);
  }

  private interface HashTest {
    boolean matches(String hash);
  }

  private List<AggregateStore.Entry> select(HashTest test, String from, String to, int limit) {
    var out = new ArrayList<AggregateStore.Entry>();
    values.forEach((key, value) -> {
      String range = key.rangeKey();
      if (test.matches(key.hashKey())
          && (from.isEmpty() || range.compareTo(from) >= 0)
          && (to.isEmpty() || range.compareTo(to) <= 0))
        out.add(new AggregateStore.Entry(key, value));
    });
    out.sort(Comparator.comparing((AggregateStore.Entry e) -> e.key().hashKey())
        .thenComparing(e -> e.key().rangeKey()));
    return out.size() > limit ? out.subList(0, limit) : out;
  }
}

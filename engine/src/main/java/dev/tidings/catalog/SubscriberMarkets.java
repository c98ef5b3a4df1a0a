package dev.tidings.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.tidings.storage.BatchedLookup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The market each subscriber is in ({@link Markets#of}): the one answer every email part asks, its
 * digest's prices and its slots alike, so they cannot disagree. The markets are read once per {@link
 * #KEEP} for the node; a subscriber's placement (the market they name, their country) is kept as long,
 * so the several parts of one email read it once; placements asked at the same moment by many threads
 * are read in one query. With no markets defined no placement is read at all. Thread-safe.
 */
public final class SubscriberMarkets {
  /** How long the markets and a placement are kept: a market edit reaches every email within it. */
  public static final Duration KEEP = Duration.ofMinutes(1);

  /**
   * Prometheus adds {@code _total}: subscribers whose placement was read from the audience (a kept
   * one is not counted).
   */
  public static final String PLACEMENT_READS = "tidings_catalog_subscriber_placement_reads";

  private static final int KEPT_PLACEMENTS = 100_000;
  private static final Placement NOWHERE = new Placement(Optional.empty(), Optional.empty());

  /** What places a subscriber in a market: the market they name, else their country. */
  public record Placement(Optional<String> market, Optional<String> country) {}

  private final LoadingCache<Boolean, List<Market>> markets;
  private final Cache<String, Placement> placements;
  private final Function<Collection<String>, Map<String, Placement>> read;
  private final BatchedLookup<String, Placement> batched;
  private final Counter reads;

  /**
   * @param markets every market defined ({@link Markets#list})
   * @param placements the placements of those of the subscribers that exist, in one read
   */
  public SubscriberMarkets(
      Supplier<List<Market>> markets,
      Function<Collection<String>, Map<String, Placement>> placements,
      MeterRegistry metrics) {
    this(markets, placements, metrics, Ticker.systemTicker());
  }

  SubscriberMarkets(
      Supplier<List<Market>> markets,
      Function<Collection<String>, Map<String, Placement>> placements,
      MeterRegistry metrics,
      Ticker ticker) {
    this.markets = Caffeine.newBuilder()
        .expireAfterWrite(KEEP)
        .ticker(ticker)
        .build(any -> List.copyOf(markets.get()));
    this.placements = Caffeine.newBuilder()
        .expireAfterWrite(KEEP)
        .maximumSize(KEPT_PLACEMENTS)
        .ticker(ticker)
        .build();
    this.read = placements;
    this.batched = new BatchedLookup<>("subscriber placements", this::readAll, 256, 2);
    this.reads = Counter.builder(PLACEMENT_READS)
        .description("subscribers whose placement was read to find their market")
        .register(metrics);
  }

  /** Every market defined, as kept for the node. */
  public List<Market> defined() {
    return markets.get(Boolean.TRUE);
  }

  /** The subscriber's market; empty when no markets are defined (then every product is sold). */
  public Optional<Market> of(String subscriberId) {
    List<Market> defined = defined();
    if (defined.isEmpty()) return Optional.empty();
    Placement placement = placements.getIfPresent(subscriberId);
    if (placement == null) {
      // concurrent misses, of this subscriber or others, share one read
      placement = batched.get(subscriberId).orElse(NOWHERE);
      placements.put(subscriberId, placement);
    }
    return in(placement, defined);
  }

  /**
   * The markets of many subscribers in one read of the placements not kept; a subscriber has no entry
   * when no markets are defined.
   */
  public Map<String, Market> ofAll(Collection<String> subscriberIds) {
    List<Market> defined = defined();
    if (defined.isEmpty() || subscriberIds.isEmpty()) return Map.of();
    Map<String, Placement> known = new HashMap<>(placements.getAllPresent(subscriberIds));
    List<String> missing = new ArrayList<>();
    for (String id : new LinkedHashSet<>(subscriberIds))
      if (!known.containsKey(id)) missing.add(id);
    if (!missing.isEmpty()) {
      Map<String, Placement> fresh = readAll(new LinkedHashSet<>(missing));
      for (String id : missing) {
        Placement placement = fresh.getOrDefault(id, NOWHERE);
        placements.put(id, placement);
        known.put(id, placement);
      }
    }
    Map<String, Market> out = HashMap.newHashMap(known.size());
    known.forEach((id, placement) -> in(placement, defined).ifPresent(m -> out.put(id, m)));
    return out;
  }

  private Map<String, Placement> readAll(Set<String> ids) {
    reads.increment(ids.size());
    return read.apply(ids);
  }

  private static Optional<Market> in(Placement placement, List<Market> defined) {
    return Markets.of(placement.market(), placement.country(), defined);
  }
}

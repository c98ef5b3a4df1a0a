package dev.tidings.opentime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.BatchedLookup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;

/**
 * Chooses an email's slot products once for the whole cluster (seed 01, done atomically by the
 * {@link ComputeOnce} port) and keeps them for good. In order: this node's near cache; the
 * coordinator, whose one winner takes the list kept in the database if there is one and otherwise asks
 * the {@link Recommender}, excluding what the subscriber's recent emails showed; and when the
 * coordinator is slow or down, the same computation here without the lock (a fallback, counted),
 * kept in the database before it is served so that the table settles which fallback an email keeps.
 * Lists chosen under the lock are kept in the database in batches, off the request path.
 */
public final class SlotChooser implements AutoCloseable {
  /** Recent emails whose products the next email does not repeat. */
  private static final int RECENT_EMAILS = 5;

  /** Asks of the recommender at most per email when the slot rules leave its answers short. */
  private static final int ASKS = 3;

  /** Prometheus adds {@code _seconds_bucket}, {@code _count} and {@code _sum}. */
  public static final String LATENCY = "tidings_opentime_slot_list";

  private static final Duration[] LATENCY_BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500)
  };

  private final Map<ChosenSlots.How, Timer> latency = new EnumMap<>(ChosenSlots.How.class);
  private final ComputeOnce computeOnce;
  private final Recommender recommender;
  private final SlotRules rules;
  private final SlotTable table;
  /** The pasts of emails chosen at the same moment, read in one query. */
  private final BatchedLookup<MessageId, SlotTable.Past> pasts;
  /** Keeps chosen lists in the database in batches, off the request path. */
  private final BatchingBuffer<ChosenSlots> recorder;

  private final Options options;
  private final InstantSource clock;
  private final Cache<String, ChosenSlots> nearCache;
  private final Counter fallbacks;
  private final Counter computed;

  /**
   * @param timings the coordinator's lock, list TTL and wait; the wait shorter than the HTTP deadline
   * @param nearCacheEmails lists this node keeps in memory
   */
  public record Options(Timings timings, int nearCacheEmails, Duration recommendDeadline) {
    public static Options defaults() {
      return new Options(
          new Timings(Duration.ofSeconds(2), Duration.ofMinutes(10), Duration.ofMillis(1_500)),
          50_000,
          Duration.ofMillis(800));
    }
  }

  public SlotChooser(
      ComputeOnce computeOnce,
      Recommender recommender,
      Jdbi jdbi,
      InstantSource clock,
      MeterRegistry metrics,
      Options options) {
    this(computeOnce, recommender, SlotRules.NONE, jdbi, clock, metrics, options);
  }

  /**
   * @param rules what the email shows already and which candidates its slots may show
   */
  public SlotChooser(
      ComputeOnce computeOnce,
      Recommender recommender,
      SlotRules rules,
      Jdbi jdbi,
      InstantSource clock,
      MeterRegistry metrics,
      Options options) {
    this.computeOnce = computeOnce;
    this.recommender = recommender;
    this.rules = rules;
    this.table = new SlotTable(jdbi);
    this.pasts = new BatchedLookup<>(
        "email pasts", messages -> table.pasts(messages, RECENT_EMAILS), 128, 2);
    this.recorder = new BatchingBuffer<>("chosen slot lists", 100_000, 1_000, table::keepAll);
    this.options = options;
    this.clock = clock;
    this.nearCache = Caffeine.newBuilder()
        .maximumSize(options.nearCacheEmails())
        .recordStats()
        .build();
    CaffeineCacheMetrics.monitor(metrics, nearCache, "opentime_near_cache");
    this.fallbacks = Counter.builder("tidings_opentime_fallbacks")
        .description("slot lists chosen without the coordinator (slow or down)")
        .register(metrics);
    this.computed = Counter.builder("tidings_opentime_computed")
        .description("slot lists computed on this node")
        .register(metrics);
    for (ChosenSlots.How how : ChosenSlots.How.values())
      latency.put(
          how,
          Timer.builder(LATENCY)
              .description("Time to have an email's slot list, by how it was had")
              .tag("path", how.name().toLowerCase(Locale.ROOT))
              .serviceLevelObjectives(LATENCY_BUCKETS)
              .register(metrics));
  }

  /**
   * The email's list; never throws for a coordinator that is slow or down. How long it took is
   * recorded by how the list was had ({@value #LATENCY}{@code {path}}: computed for an email's first
   * open, joined, near_cache for a re-open on this node, stored, fallback).
   */
  public ChosenSlots choose(MessageToken token) {
    long start = System.nanoTime();
    ChosenSlots chosen = chooseOnce(token);
    Objects.requireNonNull(latency.get(chosen.how()))
        .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    return chosen;
  }

  private ChosenSlots chooseOnce(MessageToken token) {
    String key = token.message().text();
    Optional<ChosenSlots> near = nearCached(key);
    if (near.isPresent() && near.get().how() != ChosenSlots.How.FALLBACK)
      return near.get().how(ChosenSlots.How.NEAR_CACHE);
    if (near.isPresent()) return settled(token, near.get()).how(ChosenSlots.How.NEAR_CACHE);
    ChosenSlots chosen;
    try {
      Outcome outcome = computeOnce.computeOnce("slots:" + key, options.timings(), () -> {
        ChosenSlots fresh = compute(token);
        return fresh.encode() + ";" + fresh.how().name();
      });
      chosen = switch (outcome) {
        case Outcome.Computed c -> {
          ChosenSlots list = decode(token, c.value(), true);
          if (list.how() == ChosenSlots.How.COMPUTED) {
            computed.increment();
            recorder.add(list);
          }
          yield list;
        }
        case Outcome.Joined j -> decode(token, j.value(), false);
        case Outcome.TimedOut t -> fallback(token);
      };
    } catch (CoordinationException e) {
      chosen = fallback(token);
    }
    return remember(key, chosen);
  }

  /**
   * The list the email would show if its images were fetched now, keeping nothing: the kept list if
   * there is one, else the recommender's answer, asked as {@link #choose} asks it. For previews and test
   * sends, whose slots must show products without being counted as shown.
   */
  public ChosenSlots wouldChoose(MessageToken token) {
    Optional<ChosenSlots> near = nearCached(token.message().text());
    if (near.isPresent()) return near.get();
    return compute(token);
  }

  /** The list kept for an email, for support: never computes. */
  public Optional<ChosenSlots> kept(MessageToken token) {
    Optional<ChosenSlots> near = nearCached(token.message().text());
    if (near.isEmpty()) return table.find(token.message());
    if (near.get().how() != ChosenSlots.How.FALLBACK) return near;
    return Optional.of(settled(token, near.get()));
  }

  /**
   * A fallback stands in only until the coordinator's winner publishes: that list is the email's for
   * good (the winner keeps it in the table over any fallback), so from then on this node serves it
   * too, and images and clicks agree on every node.
   */
  private ChosenSlots settled(MessageToken token, ChosenSlots fallback) {
    Optional<String> published;
    try {
      published = computeOnce.peek("slots:" + token.message().text());
    } catch (CoordinationException e) {
      return fallback; // still down: the fallback is all there is
    }
    if (published.isEmpty()) return fallback;
    ChosenSlots winner = decode(token, published.get(), false);
    nearCache.put(token.message().text(), winner);
    return winner;
  }

  /** Waits until every list handed to the database so far is written. */
  public void flush() throws InterruptedException {
    recorder.flush();
  }

  private ChosenSlots fallback(MessageToken token) {
    fallbacks.increment();
    ChosenSlots list = compute(token);
    if (list.how() != ChosenSlots.How.COMPUTED) return list; // kept already: the fallback found it
    // Kept as provisional before it is served, and served as the table keeps it: with the
    // coordinator down, the table is the arbiter, so fallbacks on every node serve the
    // first one, and the winner that comes after the coordinator returns takes it from the
    // table rather than choose anew.
    return table.keepFallback(list.how(ChosenSlots.How.FALLBACK));
  }

  private ChosenSlots compute(MessageToken token) {
    SlotTable.Past past = pasts
        .get(token.message())
        .orElseThrow(
            () -> new IllegalStateException("no answer for " + token.message().text()));
    if (past.kept().isPresent()) return past.kept().get();
    int slots = Math.max(1, token.slots());
    // what this email shows already (its digest, its template) is excluded like what the last
    // emails showed; the recommender is asked for more than the slots, so that they still fill once
    // the rules drop candidates (the same product under another id, a product not sold in the
    // subscriber's market)
    Set<String> inEmail = rules.alreadyShown(token.message());
    Set<String> exclude = new LinkedHashSet<>(past.recentlyShown());
    exclude.addAll(inEmail);
    int ask = Math.min(RecommendationRequest.MAX_K, rules.candidates(slots));
    List<String> products = new ArrayList<>(slots);
    // one deadline for every ask: asking again must not make the open wait longer
    var deadline = clock.instant().plus(options.recommendDeadline());
    // a market that sells a small part of the catalogue may leave the first answer short: ask
    // again, excluding what was already weighed, a few times at most
    for (int round = 0; round < ASKS && products.size() < slots; round++) {
      var request = new RecommendationRequest(
          token.message().subscriberId(),
          ask,
          exclude,
          Optional.of(token.message().campaignId()),
          Locale.ROOT,
          deadline,
          token.arm());
      var candidates = recommender.recommend(request).productIds();
      Set<String> taken = new LinkedHashSet<>(inEmail);
      taken.addAll(products);
      for (String id : rules.admissible(token.message(), candidates, taken))
        if (products.size() < slots) products.add(id);
      if (candidates.size() < ask || rules == SlotRules.NONE) break; // the recommender has no more
      exclude.addAll(candidates);
      ask = RecommendationRequest.MAX_K;
    }
    return new ChosenSlots(token.message(), products, clock.instant(), ChosenSlots.How.COMPUTED);
  }

  /** The value is the list, then how its computer got it: a list taken from the database stays STORED. */
  private static ChosenSlots decode(MessageToken token, String value, boolean here) {
    int split = value.lastIndexOf(';');
    ChosenSlots.How origin = ChosenSlots.How.valueOf(value.substring(split + 1));
    ChosenSlots list = ChosenSlots.decode(token.message(), value.substring(0, split), origin);
    if (here) return list;
    return list.how(ChosenSlots.How.JOINED);
  }

  private Optional<ChosenSlots> nearCached(String key) {
    return Optional.ofNullable(nearCache.getIfPresent(key));
  }

  /**
   * Keeps the list in the near cache unless a request on this node got there first, and returns the
   * list to serve: the first one, so two requests on one node never serve two lists (concurrent
   * fallbacks each compute).
   */
  private ChosenSlots remember(String key, ChosenSlots list) {
    ChosenSlots first = nearCache.asMap().putIfAbsent(key, list);
    return first == null ? list : first.how(list.how());
  }

  @Override
  public void close() {
    recorder.close();
  }
}

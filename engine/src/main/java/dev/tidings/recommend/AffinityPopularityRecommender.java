package dev.tidings.recommend;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.catalog.CatalogService;
import dev.tidings.recommend.Selection.Candidate;
import dev.tidings.storage.BatchedLookup;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Products of the brands and categories a subscriber has lately shown a taste for ("affinity"), then the
 * catalogue's recent best sellers as fill ("popular"). Sold-out products, excluded ids and products the
 * subscriber bought are never offered, and one brand takes at most half the places (rounded up) while
 * others can take them.
 *
 * <p>Popularity and the catalogue are held in memory and rebuilt in the background every {@link
 * Options#refreshEvery()} while in use, so a request costs one indexed read of the subscriber's recent
 * events, shared in one query with the other subscribers asked for at the same moment. That query is bounded by the request's deadline and {@link Options#maxQueryTime()}; when the
 * deadline is too near, or the query fails or is late, the answer is popularity alone (counted by {@link
 * #popularityOnlyAnswers()}) rather than an error.
 */
public final class AffinityPopularityRecommender implements Recommender {
  public static final String AFFINITY = "affinity";
  public static final String POPULAR = "popular";

  private static final Logger LOG = LoggerFactory.getLogger(AffinityPopularityRecommender.class);

  /** Below this much time left, the subscriber's query is not worth starting. */
  private static final Duration MIN_QUERY_BUDGET = Duration.ofMillis(2);

  /** Brands and categories of a subscriber's taste that are considered, and products looked at in each. */
  private static final int TOP_TASTES = 5;

  private static final int PRODUCTS_PER_TASTE = 200;

  /** Popularity only breaks ties between products of equal affinity; it never outweighs taste. */
  private static final double POPULARITY_TIE_BREAK = 0.01;

  /**
   * @param refreshEvery how old the in-memory popularity and catalogue may get before a rebuild starts
   * @param popularityWindow how far back events count towards popularity
   * @param historyWindow how far back a subscriber's events count towards their taste
   * @param halfLife the age at which an event counts half
   * @param maxHistoryEvents most recent events of a subscriber read per request
   * @param maxQueryTime the longest a subscriber's query may take, whatever the deadline
   */
  public record Options(
      Duration refreshEvery,
      Duration popularityWindow,
      Duration historyWindow,
      Duration halfLife,
      int maxHistoryEvents,
      Duration maxQueryTime) {
    public Options {
      Objects.requireNonNull(refreshEvery, "refreshEvery");
      Objects.requireNonNull(popularityWindow, "popularityWindow");
      Objects.requireNonNull(historyWindow, "historyWindow");
      Objects.requireNonNull(halfLife, "halfLife");
      Objects.requireNonNull(maxQueryTime, "maxQueryTime");
      if (refreshEvery.isNegative() || halfLife.isNegative() || halfLife.isZero())
        throw new IllegalArgumentException("refreshEvery must be >= 0 and halfLife > 0");
      if (maxHistoryEvents < 1) throw new IllegalArgumentException("maxHistoryEvents must be >= 1");
    }

    public static Options defaults() {
      return new Options(
          Duration.ofSeconds(60),
          Duration.ofDays(30),
          Duration.ofDays(90),
          Duration.ofDays(14),
          500,
          Duration.ofMillis(200));
    }

    public Options withRefreshEvery(Duration every) {
      return new Options(
          every, popularityWindow, historyWindow, halfLife, maxHistoryEvents, maxQueryTime);
    }
  }

  private final InstantSource clock;
  /** The histories of subscribers whose emails are chosen at the same moment, read in one query. */
  private final BatchedLookup<String, List<ActivityHistory.PastEvent>> histories;

  private final Options options;
  private final SnapshotCache snapshots;
  private final ExecutorService queries = Executors.newVirtualThreadPerTaskExecutor();
  private final LongAdder popularityOnly = new LongAdder();

  public AffinityPopularityRecommender(
      CatalogService catalog, ActivityHistory history, InstantSource clock, Options options) {
    this.clock = clock;
    this.histories = new BatchedLookup<>(
        "subscriber history",
        subscribers -> history.recentEventsOfUsers(
            subscribers,
            clock.instant().minus(options.historyWindow()),
            options.maxHistoryEvents(),
            options.maxQueryTime()),
        128,
        2);
    this.options = options;
    this.snapshots = new SnapshotCache(
        () -> {
          Instant now = clock.instant();
          return CatalogSnapshot.of(
              now, catalog.allTraits(), history.countsSince(now.minus(options.popularityWindow())));
        },
        clock,
        options.refreshEvery());
  }

  /** With the default options, reading the catalogue and activity through their services on {@code jdbi}. */
  public static AffinityPopularityRecommender of(Jdbi jdbi, InstantSource clock) {
    return new AffinityPopularityRecommender(
        new CatalogService(jdbi, clock), new ActivityHistory(jdbi), clock, Options.defaults());
  }

  @Override
  public Recommendations recommend(RecommendationRequest request) {
    CatalogSnapshot catalog;
    try {
      catalog = snapshots.get();
    } catch (RuntimeException e) {
      // no catalogue in memory yet and the database cannot give one: nothing can be recommended now
      popularityOnly.increment();
      LOG.warn("recommendations: cannot load the catalogue; answering with nothing", e);
      return new Recommendations(List.of());
    }
    TasteProfile taste = taste(request, catalog);
    var selection = new Selection(
        request.k(), id -> !request.exclude().contains(id) && !taste.bought().contains(id));
    if (!taste.isEmpty()) selection.offer(byAffinity(taste, catalog));
    for (CatalogSnapshot.Ranked product : catalog.popular()) {
      if (selection.full()) break;
      selection.offer(new Candidate(product, POPULAR, product.popularity()));
    }
    return new Recommendations(selection.result());
  }

  /** Requests answered from popularity alone because the deadline was near or the database failed or was late. */
  public long popularityOnlyAnswers() {
    return popularityOnly.sum();
  }

  /** Rebuilds popularity and the catalogue index now rather than when the interval has passed. */
  public void refresh() {
    snapshots.refresh();
  }

  private TasteProfile taste(RecommendationRequest request, CatalogSnapshot catalog) {
    Instant now = clock.instant();
    Duration left = Duration.between(now, request.deadline());
    if (left.compareTo(MIN_QUERY_BUDGET) < 0) {
      popularityOnly.increment();
      return TasteProfile.NONE;
    }
    Duration budget = left.compareTo(options.maxQueryTime()) < 0 ? left : options.maxQueryTime();
    Future<List<ActivityHistory.PastEvent>> events =
        queries.submit(() -> histories.get(request.subscriberId()).orElse(List.of()));
    try {
      return TasteProfile.of(
          events.get(budget.toNanos(), TimeUnit.NANOSECONDS), catalog, now, options.halfLife());
    } catch (TimeoutException e) {
      // the statement timeout ends the query in the database; the caller need not wait
      // for that. No interrupt: interrupting a thread in JDBC I/O closes its socket and
      // costs the pool a connection
      events.cancel(false);
      popularityOnly.increment();
      return TasteProfile.NONE;
    } catch (ExecutionException e) {
      popularityOnly.increment();
      LOG.debug("recommendations: reading the history of a subscriber failed", e.getCause());
      return TasteProfile.NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      events.cancel(false);
      popularityOnly.increment();
      return TasteProfile.NONE;
    }
  }

  /**
   * Products of the subscriber's favourite brands and categories, scored by how much of each they like
   * (each scaled to 1 for their favourite), popularity breaking ties, then id so the order is repeatable.
   */
  private static List<Candidate> byAffinity(TasteProfile taste, CatalogSnapshot catalog) {
    double maxBrand = max(taste.brands());
    double maxCategory = max(taste.categories());
    double maxPopularity =
        catalog.popular().isEmpty() ? 0 : catalog.popular().getFirst().popularity();
    var products = new HashMap<String, CatalogSnapshot.Ranked>();
    for (String brand : TasteProfile.top(taste.brands(), TOP_TASTES))
      catalog.ofBrand(brand).stream()
          .limit(PRODUCTS_PER_TASTE)
          .forEach(p -> products.put(p.id(), p));
    for (String category : TasteProfile.top(taste.categories(), TOP_TASTES))
      catalog.ofCategory(category).stream()
          .limit(PRODUCTS_PER_TASTE)
          .forEach(p -> products.put(p.id(), p));
    var candidates = new ArrayList<Candidate>(products.size());
    for (CatalogSnapshot.Ranked product : products.values()) {
      double score = share(taste.brands(), product.brand(), maxBrand)
          + share(taste.categories(), product.category(), maxCategory)
          + (maxPopularity > 0 ? POPULARITY_TIE_BREAK * product.popularity() / maxPopularity : 0);
      candidates.add(new Candidate(product, AFFINITY, score));
    }
    candidates.sort(Comparator.comparingDouble(Candidate::score)
        .reversed()
        .thenComparing(c -> c.product().id()));
    return candidates;
  }

  private static double share(Map<String, Double> affinities, @Nullable String key, double max) {
    if (key == null || max <= 0) return 0;
    return affinities.getOrDefault(key, 0.0) / max;
  }

  private static double max(Map<String, Double> affinities) {
    return affinities.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }
}

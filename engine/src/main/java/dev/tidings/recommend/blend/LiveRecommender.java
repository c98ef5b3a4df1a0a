package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.audience.FollowService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.events.Broadcasts;
import dev.tidings.events.activity.SignalsChanged;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntSupplier;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * A node's recommender: the {@link Blender} with its background work. The settings are re-read every
 * {@link Options#settingsEvery()}, the item model (catalogue, trending, co-occurrence) rebuilt every
 * {@link Options#itemsEvery()}, and EASE refitted every {@link Options#easeEvery()}, each on a daemon
 * thread of its own so a slow fit never delays the settings. Thread-safe; close it to stop them.
 */
public final class LiveRecommender implements Recommender, AutoCloseable {
  /**
   * @param settingsEvery how often the settings are re-read: a change through the API applies
   *     within this on every node
   * @param itemsEvery how often trending and the catalogue are rebuilt
   * @param neighboursEvery how often the all-time counts and co-occurrence neighbours are re-read (the
   *     largest read: every all-time item aggregate)
   * @param easeEvery how often EASE is refitted (its cost is cubic in its items)
   */
  public record Options(
      Duration settingsEvery, Duration itemsEvery, Duration neighboursEvery, Duration easeEvery) {
    public Options {
      Objects.requireNonNull(settingsEvery, "settingsEvery");
      Objects.requireNonNull(itemsEvery, "itemsEvery");
      Objects.requireNonNull(neighboursEvery, "neighboursEvery");
      Objects.requireNonNull(easeEvery, "easeEvery");
    }

    public static Options defaults() {
      return new Options(
          Duration.ofSeconds(2),
          Duration.ofSeconds(5),
          Duration.ofMinutes(1),
          Duration.ofMinutes(10));
    }
  }

  public static final String LATENCY = "tidings_recommend";
  private static final Duration[] LATENCY_BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofSeconds(1)
  };

  private final Timer latency;
  private final SettingsStore store;
  private final Refreshed<RecommenderSettings> settings;
  private final Refreshed<Neighbourhood> neighbourhood;
  private final Refreshed<ItemModel> items;
  private final Refreshed<Fit> ease;
  private final SignalReader signals;
  private final @Nullable WarmSignals warm;
  private final Broadcasts.@Nullable Listening feed;
  private final Blender blender;
  private final List<ScheduledExecutorService> schedulers;

  /** EASE's latest fit; none until the first has finished (and when disabled). */
  private record Fit(@Nullable EaseModel model) {}

  /** Timing each answer in {@code metrics}' {@code tidings_recommend_seconds}. */
  public LiveRecommender(
      SettingsStore store,
      CatalogFacts catalog,
      AggregateReader aggregates,
      Follows.Reader follows,
      InstantSource clock,
      Options options,
      MeterRegistry metrics) {
    this(store, catalog, aggregates, follows, clock, options, metrics, null);
  }

  /**
   * Where a node keeps its users' signals warm: the aggregates and follows it loads them from, where
   * it hears whose signals changed, and how many entries it holds at most.
   */
  public record Warming(
      AggregateStore aggregates, Follows.Loader follows, Broadcasts broadcasts, long maxEntries) {}

  private LiveRecommender(
      SettingsStore store,
      CatalogFacts catalog,
      AggregateReader aggregates,
      Follows.Reader follows,
      InstantSource clock,
      Options options,
      MeterRegistry metrics,
      @Nullable Warming warming) {
    this.latency = Timer.builder(LATENCY)
        .description("Time to answer one recommendation request (API and open-time slots)")
        .serviceLevelObjectives(LATENCY_BUCKETS)
        .register(metrics);
    this.store = store;
    this.settings = new Refreshed<>("the recommender settings", store::load);
    this.neighbourhood = new Refreshed<>(
        "the co-occurrence neighbours", () -> Neighbourhood.load(aggregates, clock.instant()));
    this.items = new Refreshed<>("the item model", () -> {
      AlgorithmSettings popularity = settings.get().of(Algorithm.POPULARITY);
      Instant now = clock.instant();
      return ItemModel.load(
          catalog,
          aggregates,
          neighbourhood.get(),
          now,
          LocalDate.ofInstant(now, ZoneOffset.UTC),
          popularity.param(Algorithm.POPULARITY, "halfLifeDays"),
          (int) popularity.param(Algorithm.POPULARITY, "windowDays"),
          popularity.param(Algorithm.POPULARITY, "purchaseWeight"));
    });
    this.ease = new Refreshed<>("the EASE model", () -> {
      AlgorithmSettings easeSettings = settings.get().of(Algorithm.EASE);
      // never builds the item model itself: built before the catalogue is filled, it would be empty
      ItemModel model = items.current();
      if (!easeSettings.enabled() || model == null) return new Fit(null);
      return new Fit(EaseModel.fit(
          model,
          (int) easeSettings.param(Algorithm.EASE, "items"),
          easeSettings.param(Algorithm.EASE, "lambda"),
          clock.instant()));
    });
    IntSupplier recentDays = () -> (int) Math.ceil(
        settings.get().of(Algorithm.RECENTLY_VIEWED).param(Algorithm.RECENTLY_VIEWED, "days"));
    if (warming != null && warming.maxEntries() > 0) {
      this.warm = new WarmSignals(
          warming.aggregates(),
          warming.follows(),
          () ->
              LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(recentDays.getAsInt()),
          warming.maxEntries(),
          metrics);
      this.feed = warming.broadcasts().listen(SignalsChanged.BROADCAST, warm);
    } else {
      this.warm = null;
      this.feed = null;
    }
    this.signals = new SignalReader(aggregates, follows, clock, recentDays, warm);
    this.blender = new Blender(
        CandidateSource.all(),
        settings::get,
        this::itemModel,
        () -> {
          Fit fit = ease.current();
          return fit == null ? null : fit.model();
        },
        signals,
        clock);
    this.schedulers = List.of(
        scheduler("recommend-settings"),
        scheduler("recommend-items"),
        scheduler("recommend-neighbours"),
        scheduler("recommend-ease"));
    settings.every(options.settingsEvery(), schedulers.get(0));
    items.every(options.itemsEvery(), schedulers.get(1));
    neighbourhood.every(options.neighboursEvery(), schedulers.get(2));
    // the first fit once the item model has had time to be built; a request never waits for EASE,
    // and until the first fit EASE offers nothing rather than a fit on an empty catalogue
    ease.every(options.easeEvery(), schedulers.get(3), options.itemsEvery());
  }

  /**
   * On the node's database, with every user's signals kept warm in memory (at most {@code
   * warmEntries} aggregates and follows; 0 reads them on every request).
   */
  public static LiveRecommender of(
      Database database,
      InstantSource clock,
      Options options,
      MeterRegistry metrics,
      long warmEntries) {
    return of(database, database, clock, options, metrics, warmEntries);
  }

  /**
   * As {@link #of(Database, InstantSource, Options, MeterRegistry, long)}, with the catalogue and the
   * signals of users not held warm read from {@code reads} (a standby's pool, which may lag a
   * moment). Whose signals the database says changed is reloaded from {@code database}, the primary: a
   * standby that has not replayed the change yet would otherwise be cached as the news. Settings
   * stay on the primary too, since they are written there.
   */
  public static LiveRecommender of(
      Database database,
      Database reads,
      InstantSource clock,
      Options options,
      MeterRegistry metrics,
      long warmEntries) {
    Jdbi jdbi = database.jdbi();
    Jdbi readJdbi = reads.jdbi();
    var aggregates = new AggregateStore(jdbi);
    var follows = new FollowService(jdbi, clock);
    return new LiveRecommender(
        new JdbiSettingsStore(jdbi),
        CatalogFacts.of(new CatalogService(readJdbi, clock)),
        AggregateReader.of(new AggregateStore(readJdbi)),
        Follows.Reader.of(new FollowService(readJdbi, clock)),
        clock,
        options,
        metrics,
        new Warming(
            aggregates,
            Follows.Loader.of(follows),
            new Broadcasts(database, metrics),
            warmEntries));
  }

  /**
   * On the node's database (settings, catalogue, aggregates and follows), timing each answer in
   * {@code metrics}.
   */
  public static LiveRecommender of(
      Jdbi jdbi, InstantSource clock, Options options, MeterRegistry metrics) {
    return new LiveRecommender(
        new JdbiSettingsStore(jdbi),
        CatalogFacts.of(new CatalogService(jdbi, clock)),
        AggregateReader.of(new AggregateStore(jdbi)),
        Follows.Reader.of(new FollowService(jdbi, clock)),
        clock,
        options,
        metrics);
  }

  /**
   * The item model, built on first use. An empty one (no product known yet, as on a node started
   * before the catalogue was imported) is rebuilt on the request rather than served until the next
   * tick: an open-time slot keeps the first answer it gets for good.
   */
  private ItemModel itemModel() {
    ItemModel model = items.get();
    return model.size() > 0 ? model : items.refresh();
  }

  private static ScheduledExecutorService scheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().name(name).daemon().factory());
  }

  @Override
  public Recommendations recommend(RecommendationRequest request) {
    return latency.record(() -> blender.recommend(request));
  }

  /** Only {@code only} of the algorithms, weighted as configured: an experiment's arm. */
  public Recommendations recommend(RecommendationRequest request, Set<Algorithm> only) {
    return latency.record(() -> blender.recommend(request, only));
  }

  /** The settings this node uses now. */
  public RecommenderSettings settings() {
    return settings.get();
  }

  /** Stores a change of one algorithm and applies it on this node at once (others within seconds). */
  public RecommenderSettings change(Algorithm algorithm, AlgorithmSettings changed) {
    store.save(algorithm, changed);
    return settings.refresh();
  }

  /** Stores a change of the blender's settings and applies it on this node at once. */
  public RecommenderSettings change(BlendSettings changed) {
    store.save(changed);
    return settings.refresh();
  }

  /**
   * Rebuilds everything now, on the caller's thread (tests, benchmarks), and says how long each part
   * took: what each background rebuild costs the node.
   */
  public String refreshModels() {
    long started = System.nanoTime();
    settings.refresh();
    long settingsDone = System.nanoTime();
    neighbourhood.refresh();
    long neighboursDone = System.nanoTime();
    items.refresh();
    long itemsDone = System.nanoTime();
    ease.refresh();
    long easeDone = System.nanoTime();
    return String.format(
        Locale.ROOT,
        "settings %.3f s, neighbours %.2f s, trending and catalogue %.2f s, EASE %.2f s",
        (settingsDone - started) / 1e9,
        (neighboursDone - settingsDone) / 1e9,
        (itemsDone - neighboursDone) / 1e9,
        (easeDone - itemsDone) / 1e9);
  }

  /**
   * Re-reads the settings and rebuilds what depends on them (trending and the catalogue, EASE), on the
   * caller's thread; the co-occurrence neighbours, which no setting changes, stay. For an evaluation
   * that tries many settings on one history.
   */
  public void refreshSettingsAndModels() {
    settings.refresh();
    items.refresh();
    ease.refresh();
  }

  /** Requests answered without the user's aggregates (deadline too near, or the read failed). */
  public long answersWithoutUserSignals() {
    return signals.unread();
  }

  /** What the background work has built, for health and the benchmark. */
  public String describe() {
    ItemModel model = items.current();
    Fit fit = ease.current();
    EaseModel fitted = fit == null ? null : fit.model();
    return "items " + (model == null ? "not built" : model.size() + " products") + ", EASE "
        + (fitted == null ? "not fitted" : fitted.size() + " items");
  }

  @Override
  public void close() {
    schedulers.forEach(ScheduledExecutorService::shutdownNow);
    if (feed != null) feed.close();
    if (warm != null) warm.close();
    signals.close();
  }
}

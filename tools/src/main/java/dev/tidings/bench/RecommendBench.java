package dev.tidings.bench;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.config.SettingsCatalog;
import dev.tidings.recommend.AffinityPopularityRecommender;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommender;
import dev.tidings.recommend.blend.Keys;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The recommender's cost per call on a seeded shop: products, their trending and co-occurrence
 * aggregates, and per user a few views, purchases and brand and category affinities, written as the
 * activity capability counts them; the same views and purchases as events for the baseline, the
 * {@link AffinityPopularityRecommender} the open-time slots used before, which reads events. Each is
 * warmed up, then called for random users with k = 10 from one thread and from several.
 */
public final class RecommendBench {
  private static final int K = 10;
  private static final Duration DEADLINE = Duration.ofMillis(200);
  private static final int VIEWS_PER_USER = 6;
  private static final int PURCHASES_PER_USER = 2;
  private static final int NEIGHBOURS = 8;
  private static final int BATCH = 20_000;

  private RecommendBench() {}

  /**
   * @param users users with activity
   * @param products products in the catalogue
   * @param calls calls measured per recommender and thread count
   * @param threads callers at once in the concurrent run
   * @param seed of the generated shop and of the users asked for
   */
  public record Options(int users, int products, int calls, int threads, long seed) {}

  /** One recommender at one concurrency: microseconds per call. */
  public record Figures(
      String recommender,
      int threads,
      int calls,
      double p50Micros,
      double p99Micros,
      double maxMicros,
      double callsPerSecond) {}

  public record Result(
      Options options,
      double seedSeconds,
      long aggregates,
      long events,
      String model,
      double modelBuildSeconds,
      List<Figures> figures) {}

  public static Result run(Database database, Options options, PrintStream out) {
    long started = System.nanoTime();
    Seeded seeded = seed(database, options, out);
    double seedSeconds = (System.nanoTime() - started) / 1e9;
    out.printf(
        Locale.ROOT,
        "seeded %,d products, %,d users: %,d aggregates, %,d events in %.1f s%n",
        options.products(),
        options.users(),
        seeded.aggregates(),
        seeded.events(),
        seedSeconds);
    var figures = new ArrayList<Figures>();
    String model;
    double buildSeconds;
    try (var live = LiveRecommender.of(
        database.jdbi(),
        InstantSource.system(),
        LiveRecommender.Options.defaults(),
        new SimpleMeterRegistry())) {
      live.refreshModels(); // the first build races the background's first EASE fit
      long building = System.nanoTime();
      String parts = live.refreshModels();
      buildSeconds = (System.nanoTime() - building) / 1e9;
      model = live.describe() + "; " + parts;
      out.printf(Locale.ROOT, "blend: %s%n", model);
      var store = new AggregateStore(database.jdbi());
      figures.addAll(measureBoth(
          "user aggregates read alone",
          request -> {
            store.under(Keys.user(request.subscriberId()), "", "", 5_000);
            return ten(request);
          },
          options,
          out));
      figures.addAll(measureBoth("blend, signals read", live, options, out));
    }
    // the same blend with every user's signals warm in memory, as a node runs it
    var metrics = new SimpleMeterRegistry();
    long loading = System.nanoTime();
    try (var warm = LiveRecommender.of(
        database,
        InstantSource.system(),
        LiveRecommender.Options.defaults(),
        metrics,
        // sized to hold every user, as an operator sets TIDINGS_RECOMMEND_WARM_ENTRIES for a shop
        Math.max(SettingsCatalog.RECOMMEND_WARM_ENTRIES.intDefault(), seeded.aggregates()))) {
      while (metrics.get("tidings_recommend_warm_complete").gauge().value() < 1) {
        if (System.nanoTime() - loading > 120_000_000_000L)
          throw new IllegalStateException("the users' signals were not loaded in 2 minutes");
        sleep(10);
      }
      warm.refreshModels();
      out.printf(
          Locale.ROOT,
          "signals of %,.0f users loaded into memory %.1f s after the recommender was made%n",
          metrics.get("tidings_recommend_warm_users").gauge().value(),
          (System.nanoTime() - loading) / 1e9);
      figures.addAll(measureBoth("blend, signals warm", warm, options, out));
    }
    var baseline = AffinityPopularityRecommender.of(database.jdbi(), InstantSource.system());
    baseline.refresh();
    figures.addAll(measureBoth("affinity-popularity (before)", baseline, options, out));
    return new Result(
        options, seedSeconds, seeded.aggregates(), seeded.events(), model, buildSeconds, figures);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Ten placeholder products, so that a read alone passes the answer check. */
  private static Recommendations ten(RecommendationRequest request) {
    var items = new ArrayList<Recommendations.Recommended>();
    for (int i = 0; i < K; i++) items.add(new Recommendations.Recommended("x" + i, "read", 0));
    return new Recommendations(items);
  }

  private static List<Figures> measureBoth(
      String name, Recommender recommender, Options options, PrintStream out) {
    measure(name, recommender, 1, Math.min(2_000, options.calls()), options); // warm-up
    var figures = List.of(
        measure(name, recommender, 1, options.calls(), options),
        measure(name, recommender, options.threads(), options.calls(), options));
    figures.forEach(f -> out.printf(
        Locale.ROOT,
        "%-30s %2d thread(s): p50 %,8.0f us  p99 %,8.0f us  max %,8.0f us  %,8.0f calls/s%n",
        f.recommender(),
        f.threads(),
        f.p50Micros(),
        f.p99Micros(),
        f.maxMicros(),
        f.callsPerSecond()));
    return figures;
  }

  private static Figures measure(
      String name, Recommender recommender, int threads, int calls, Options options) {
    long[] nanos = new long[calls];
    var next = new AtomicLong();
    var random = new SplittableRandom(options.seed() + threads);
    long started = System.nanoTime();
    var workers = new ArrayList<Thread>();
    for (int t = 0; t < threads; t++) {
      var own = random.split();
      workers.add(Thread.ofPlatform().name("bench-recommend-" + t).start(() -> {
        for (long i = next.getAndIncrement(); i < calls; i = next.getAndIncrement()) {
          String user = "u-" + own.nextInt(options.users());
          long t0 = System.nanoTime();
          var answer = recommender.recommend(new RecommendationRequest(
              user, K, Set.of(), Optional.empty(), Locale.ROOT, Instant.now().plus(DEADLINE)));
          nanos[(int) i] = System.nanoTime() - t0;
          if (answer.items().size() != K)
            throw new IllegalStateException(
                name + " answered " + answer.items().size() + " for " + user);
        }
      }));
    }
    for (Thread worker : workers) {
      try {
        worker.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Arrays.sort(nanos);
    return new Figures(
        name,
        threads,
        calls,
        nanos[(int) (calls * 0.50)] / 1e3,
        nanos[Math.min(calls - 1, (int) (calls * 0.99))] / 1e3,
        nanos[calls - 1] / 1e3,
        calls / seconds);
  }

  private record Seeded(long aggregates, long events) {}

  /** A product's rank drawn with a skew: low ranks (best sellers) far more often. */
  private static int skewed(SplittableRandom random, int products) {
    return (int) (products * Math.pow(random.nextDouble(), 3));
  }

  private static Seeded seed(Database database, Options options, PrintStream out) {
    var random = new SplittableRandom(options.seed());
    Instant now = Instant.now();
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    YearMonth month = YearMonth.from(today);
    int products = options.products();
    int brands = Math.max(1, products / 100);
    int categories = Math.max(1, products / 400);
    database.jdbi().useHandle(handle -> {
      var batch = handle.prepareBatch("""
          INSERT INTO products (id, title, brand, category, price, currency, image_url, landing_url,
            available, created_at, updated_at)
          VALUES (?, ?, ?, ?, 10, 'EUR', 'https://img.example/p.png', 'https://shop.example/p', ?, ?, ?)""");
      for (int i = 0; i < products; i++) {
        Timestamp created = Timestamp.from(now.minus(Duration.ofDays(random.nextInt(400))));
        batch.add(
            "p-" + i,
            "Product " + i,
            "brand-" + (i % brands),
            "cat-" + (i % categories),
            random.nextInt(20) != 0,
            created,
            created);
      }
      batch.execute();
    });
    var store = new AggregateStore(database.jdbi());
    var all = new KeyPart.AllTime();
    var deltas = new HashMap<AggregateKey, Double>();
    long aggregates = 0;
    for (int i = 0; i < products; i++) {
      String item = "p-" + i;
      double base = 1000.0 / (i + 10);
      for (int day = 0; day < 7; day++)
        deltas.put(
            Keys.itemPopularity(item, new KeyPart.Day(today.minusDays(day))),
            Math.ceil(base * (1 + random.nextDouble())));
      deltas.put(Keys.itemPopularity(item, all), Math.ceil(base * 30));
      for (int n = 0; n < NEIGHBOURS; n++) {
        String other = "p-"
            + (i % categories + categories * random.nextInt(Math.max(1, products / categories)));
        if (other.equals(item)) continue;
        double together = 1 + random.nextInt(20);
        deltas.merge(Keys.coView(item, other, all), together, Double::sum);
        deltas.merge(Keys.coView(other, item, all), together, Double::sum);
        if (n < 2) {
          deltas.merge(Keys.coPurchase(item, other, all), 1.0, Double::sum);
          deltas.merge(Keys.coPurchase(other, item, all), 1.0, Double::sum);
        }
      }
      if (deltas.size() >= BATCH) aggregates += flush(store, deltas);
    }
    var intake = new ActivityIntake(database.jdbi(), InstantSource.system());
    var events = new ArrayList<ActivityEvent>();
    long eventCount = 0;
    for (int u = 0; u < options.users(); u++) {
      String user = "u-" + u;
      for (int v = 0; v < VIEWS_PER_USER; v++) {
        int rank = skewed(random, products);
        int daysAgo = random.nextInt(14);
        addTaste(deltas, user, rank, brands, categories, month, all);
        deltas.merge(
            Keys.views(user, "p-" + rank, new KeyPart.Day(today.minusDays(daysAgo))),
            1.0,
            Double::sum);
        events.add(event(user, EventType.VIEW, rank, now.minus(Duration.ofDays(daysAgo))));
      }
      for (int b = 0; b < PURCHASES_PER_USER; b++) {
        int rank = skewed(random, products);
        int monthsAgo = random.nextInt(6);
        addTaste(deltas, user, rank, brands, categories, month, all);
        deltas.merge(
            Keys.purchases(user, "p-" + rank, new KeyPart.Month(month.minusMonths(monthsAgo))),
            1.0,
            Double::sum);
        deltas.merge(Keys.purchases(user, "p-" + rank, all), 1.0, Double::sum);
        events.add(
            event(user, EventType.PURCHASE, rank, now.minus(Duration.ofDays(30L * monthsAgo + 1))));
      }
      if (deltas.size() >= BATCH) aggregates += flush(store, deltas);
      if (events.size() >= BATCH) {
        eventCount += events.size();
        intake.record(events);
        events.clear();
      }
      if ((u + 1) % 20_000 == 0) out.printf(Locale.ROOT, "  seeded %,d users%n", u + 1);
    }
    aggregates += flush(store, deltas);
    if (!events.isEmpty()) {
      eventCount += events.size();
      intake.record(events);
    }
    database.jdbi().useHandle(handle -> handle.execute("ANALYZE"));
    return new Seeded(aggregates, eventCount);
  }

  private static void addTaste(
      Map<AggregateKey, Double> deltas,
      String user,
      int rank,
      int brands,
      int categories,
      YearMonth month,
      KeyPart.AllTime all) {
    String brand = "brand-" + (rank % brands);
    String category = "cat-" + (rank % categories);
    deltas.merge(Keys.userBrand(user, brand, new KeyPart.Month(month)), 1.0, Double::sum);
    deltas.merge(Keys.userBrand(user, brand, all), 1.0, Double::sum);
    deltas.merge(Keys.userCategory(user, category, new KeyPart.Month(month)), 1.0, Double::sum);
    deltas.merge(Keys.userCategory(user, category, all), 1.0, Double::sum);
  }

  private static ActivityEvent event(String user, EventType type, int rank, Instant at) {
    return new ActivityEvent(Optional.empty(), user, type, "p-" + rank, at, 1, Optional.empty());
  }

  private static long flush(AggregateStore store, Map<AggregateKey, Double> deltas) {
    int size = deltas.size();
    store.add(deltas);
    deltas.clear();
    return size;
  }
}

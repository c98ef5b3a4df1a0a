package dev.tidings.bench;

import dev.tidings.Json;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.activity.StoredEvent;
import dev.tidings.activity.StoredEvents;
import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinition;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.activity.aggregate.AggregationRunner;
import dev.tidings.activity.aggregate.BacklogAggregation;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.node.ArrayNode;

/**
 * Activity in, aggregates out, as a node does it: shop sessions (views, clicks, carts, purchases by
 * many users over a catalogue whose popularity is skewed) posted as JSON arrays to the events route by
 * concurrent clients, while the node counts the stored events into every default aggregation in the
 * background. It measures the intake's events/s, how long until every event is counted, and the
 * freshness of the aggregates under that load: a probe posts one event every few milliseconds and
 * times how long after its POST returned the event shows in its user's aggregate.
 *
 * <p>In the same run, the baseline: the same events counted in the request's own transaction, the
 * synchronous way the seed ruled out ("a synchronous action occurring when an article was read was
 * simply out of the question"); its freshness is immediate, its cost is the intake's throughput. The
 * seed's own first system counted in 15-minute batches.
 */
public final class ActivityBench {
  /**
   * @param events events posted per phase
   * @param batch events per request
   * @param callers concurrent clients
   * @param users distinct users
   * @param products products in the catalogue
   * @param counters nodes counting at once
   * @param paced events/s the clients keep to in the paced phase (0: no paced phase)
   */
  public record Options(
      int events,
      int batch,
      int callers,
      int users,
      int products,
      int counters,
      int paced,
      long seed) {
    public Options {
      if (events < 1 || batch < 1 || callers < 1 || users < 1 || products < 1 || counters < 1)
        throw new IllegalArgumentException("every option must be >= 1");
      if (paced < 0) throw new IllegalArgumentException("paced must be >= 0");
    }
  }

  /** One way of counting: intake throughput, time until all is counted, freshness under load. */
  public record Phase(
      String name,
      long events,
      double ingestSeconds,
      double ingestEventsPerSecond,
      double countedSeconds,
      double countedEventsPerSecond,
      long maxBacklog,
      int probes,
      double freshnessP50Millis,
      double freshnessP99Millis,
      double freshnessMaxMillis) {}

  public record Result(Options options, String database, long aggregates, List<Phase> phases) {}

  private static final Duration PROBE_EVERY = Duration.ofMillis(20);
  private static final int BRANDS = 200;
  private static final int CATEGORIES = 40;

  private ActivityBench() {}

  public static Result run(
      Database database,
      Options options,
      Function<ActivityIntake, EventIntakeBench.Endpoint> serve,
      EventIntakeBench.ProgressDisplay progress,
      PrintStream out) {
    var jdbi = database.jdbi();
    seedCatalogue(database, options.products());
    var store = new AggregateStore(jdbi);
    var definitions = new AggregationDefinitions(jdbi, AggregationDefinitions.DEFAULT_REFRESH);
    out.printf(
        Locale.ROOT,
        "%,d events per phase in batches of %,d from %d clients; %,d users, %,d products;"
            + " %d counting node(s); aggregations: %s%n",
        options.events(),
        options.batch(),
        options.callers(),
        options.users(),
        options.products(),
        options.counters(),
        definitions.enabled().stream().map(AggregationDefinition::name).toList());

    var phases = new ArrayList<Phase>();
    var aggregation = new BacklogAggregation(jdbi, definitions, store, new SimpleMeterRegistry());
    var runners = new ArrayList<AggregationRunner>();
    for (int i = 0; i < options.counters(); i++)
      runners.add(AggregationRunner.start(aggregation, AggregationRunner.Options.defaults()));
    try {
      var intake = new ActivityIntake(jdbi, InstantSource.system());
      phases.add(phase(
          "counted in the background (Tidings)",
          generate("bg", options),
          intake,
          serve,
          store,
          aggregation::waiting,
          options.callers(),
          0,
          progress));
      if (options.paced() > 0)
        phases.add(phase(
            String.format(Locale.ROOT, "  the same, paced at %,d events/s", options.paced()),
            generate("paced", options),
            intake,
            serve,
            store,
            aggregation::waiting,
            options.callers(),
            options.paced(),
            progress));
    } finally {
      runners.forEach(AggregationRunner::close);
    }
    long aggregates = jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT (SELECT count(*) FROM aggregates) + (SELECT count(*) FROM aggregate_days)")
        .mapTo(Long.class)
        .one());

    var synchronous = new ActivityIntake(
        jdbi,
        InstantSource.system(),
        ActivityIntake.DEFAULT_BATCH_EVENTS,
        new InRequestCounting(aggregation));
    phases.add(phase(
        "counted in the request (baseline)",
        generate("sync", options),
        synchronous,
        serve,
        store,
        () -> 0L,
        options.callers(),
        0,
        progress));
    // the baseline's events were counted already; what the trigger queued for counting is not
    // needed
    jdbi.useHandle(handle -> handle.execute("TRUNCATE aggregation_backlog"));
    var result = new Result(options, database.describe(), aggregates, List.copyOf(phases));
    print(result, out);
    return result;
  }

  /**
   * Counts each request's events in its own transaction, before it answers: the same aggregations and
   * pairs as the rounds, written by the request.
   */
  private record InRequestCounting(BacklogAggregation aggregation) implements StoredEvents {
    @Override
    public void stored(Handle handle, List<StoredEvent> events) {
      if (!events.isEmpty()) aggregation.countNow(handle, events);
    }
  }

  private interface Backlog {
    long waiting();
  }

  private static Phase phase(
      String name,
      List<byte[]> batches,
      ActivityIntake intake,
      Function<ActivityIntake, EventIntakeBench.Endpoint> serve,
      AggregateStore store,
      Backlog backlog,
      int callers,
      int paced,
      EventIntakeBench.ProgressDisplay progress) {
    try (EventIntakeBench.Endpoint endpoint = serve.apply(intake);
        var client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      int perBatch = batches.isEmpty() ? 0 : eventsIn(batches.getFirst());
      long total = (long) perBatch * batches.size();
      var ingesting = new AtomicBoolean(true);
      var freshness = new ArrayList<Long>();
      var maxBacklog = new AtomicLong();
      Future<?> probe = threads.submit(() -> {
        int n = 0;
        while (ingesting.get()) {
          freshness.add(probeOnce(client, endpoint, store, name.hashCode() + "-" + n++));
          maxBacklog.accumulateAndGet(backlog.waiting(), Math::max);
          Thread.sleep(PROBE_EVERY);
        }
        return null;
      });
      long started = System.nanoTime();
      var next = new AtomicInteger();
      var posted = new AtomicLong();
      try (Tracker tracker = progress.start(name, total)) {
        var clients = new ArrayList<Future<?>>();
        for (int c = 0; c < Math.min(callers, batches.size()); c++)
          clients.add(threads.submit(() -> {
            for (int i = next.getAndIncrement(); i < batches.size(); i = next.getAndIncrement()) {
              if (paced > 0) {
                // batch i is due when i batches' worth of events have had their time
                long due = started + (long) (i * (double) perBatch / paced * 1e9);
                long wait = due - System.nanoTime();
                if (wait > 0) Thread.sleep(Duration.ofNanos(wait));
              }
              post(client, endpoint, batches.get(i));
              tracker.stepTo(posted.addAndGet(perBatch));
            }
            return null;
          }));
        for (Future<?> poster : clients) poster.get();
      }
      double ingestSeconds = (System.nanoTime() - started) / 1e9;
      ingesting.set(false);
      probe.get();
      long waiting;
      while ((waiting = backlog.waiting()) > 0) {
        maxBacklog.accumulateAndGet(waiting, Math::max);
        Thread.sleep(20);
      }
      double countedSeconds = (System.nanoTime() - started) / 1e9;
      long[] sorted = freshness.stream().mapToLong(Long::longValue).sorted().toArray();
      return new Phase(
          name,
          total,
          ingestSeconds,
          total / ingestSeconds,
          countedSeconds,
          total / countedSeconds,
          maxBacklog.get(),
          sorted.length,
          percentile(sorted, 0.50) / 1e6,
          percentile(sorted, 0.99) / 1e6,
          sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
    } catch (Exception e) {
      throw new IllegalStateException(name + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Posts one view by a user of its own and waits until that user's aggregate shows it: the time from
   * the answer to the POST (the event is stored) until it is counted.
   */
  private static long probeOnce(
      HttpClient client, EventIntakeBench.Endpoint endpoint, AggregateStore store, String id)
      throws Exception {
    String user = "probe-" + id;
    Instant now = Instant.now();
    ArrayNode array = Json.MAPPER.createArrayNode();
    array
        .addObject()
        .put("userId", user)
        .put("type", "view")
        .put("itemId", "p-1")
        .put("timestamp", now.toString());
    post(client, endpoint, Json.MAPPER.writeValueAsBytes(array));
    long stored = System.nanoTime();
    var key = AggregateKey.parse(
        "s@user:s@" + user + ":s@item:s@p-1:s@user_item_views:s@recently_viewed:b@"
            + now.atZone(ZoneOffset.UTC).toLocalDate());
    while (store.read(key.hashKey(), key.rangeKey(), key.rangeKey(), 1).isEmpty()) {
      if (System.nanoTime() - stored > Duration.ofSeconds(60).toNanos())
        throw new IllegalStateException("the probe's event was not counted within 60 s");
      Thread.sleep(2);
    }
    return System.nanoTime() - stored;
  }

  private static void post(HttpClient client, EventIntakeBench.Endpoint endpoint, byte[] body)
      throws Exception {
    var request = HttpRequest.newBuilder(endpoint.events())
        .timeout(Duration.ofSeconds(120))
        .header("Authorization", "Bearer " + endpoint.apiKey())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
    var response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 202)
      throw new IllegalStateException("POST " + endpoint.events() + " answered "
          + response.statusCode() + ": " + response.body());
  }

  private static int eventsIn(byte[] batch) {
    return Json.MAPPER.readTree(batch).size();
  }

  private static long percentile(long[] sorted, double share) {
    if (sorted.length == 0) return 0;
    int index = (int) Math.ceil(share * sorted.length) - 1;
    return sorted[Math.max(0, index)];
  }

  private static void seedCatalogue(Database database, int products) {
    database
        .jdbi()
        .useHandle(handle -> handle
            .createUpdate("""
            INSERT INTO products (id, title, brand, category, price, currency, image_url, landing_url,
                                  created_at, updated_at)
            SELECT 'p-' || i, 'Product ' || i, 'brand-' || (i % :brands), 'category-' || (i % :categories),
                   10 + i % 90, 'EUR', 'https://shop.test/i/' || i || '.png', 'https://shop.test/p/' || i,
                   now(), now()
              FROM generate_series(1, :products) AS i
            ON CONFLICT (id) DO NOTHING""")
            .bind("brands", BRANDS)
            .bind("categories", CATEGORIES)
            .bind("products", products)
            .execute());
  }

  /**
   * Visits of a shop, as JSON arrays ready to post: each visit a session of one user viewing 1-8
   * products (a few clicked or carted, some bought), products drawn with a heavy skew towards the
   * popular ones, so hot items share keys as in a real shop.
   */
  static List<byte[]> generate(String prefix, Options options) {
    var random = new SplittableRandom(options.seed() + prefix.hashCode());
    Instant now = Instant.now();
    var events = new ArrayList<ActivityEvent>(options.events());
    int session = 0;
    while (events.size() < options.events()) {
      session++;
      String user = "u-" + random.nextInt(options.users());
      String sessionId = prefix + "-s-" + session;
      int views = 1 + random.nextInt(8);
      for (int v = 0; v < views && events.size() < options.events(); v++) {
        String item = "p-" + (1 + (int) (options.products() * Math.pow(random.nextDouble(), 3)));
        EventType type = switch (random.nextInt(20)) {
          case 0, 1, 2 -> EventType.CLICK;
          case 3 -> EventType.ADD_TO_CART;
          case 4 -> EventType.PURCHASE;
          default -> EventType.VIEW;
        };
        events.add(new ActivityEvent(
            Optional.of(prefix + "-" + events.size()),
            user,
            type,
            item,
            now.minusSeconds(random.nextInt(3_600)),
            type == EventType.PURCHASE ? 1 + random.nextInt(3) : 1,
            type == EventType.PURCHASE ? Optional.of(BigDecimal.TEN) : Optional.empty(),
            Optional.of(sessionId),
            Map.of()));
      }
    }
    var batches = new ArrayList<byte[]>();
    for (int from = 0; from < events.size(); from += options.batch()) {
      ArrayNode array = Json.MAPPER.createArrayNode();
      for (ActivityEvent event :
          events.subList(from, Math.min(events.size(), from + options.batch())))
        array.add(ActivityIntake.toJson(event));
      batches.add(Json.MAPPER.writeValueAsBytes(array));
    }
    return batches;
  }

  static void print(Result result, PrintStream out) {
    out.printf(Locale.ROOT, "%naggregates written: %,d%n", result.aggregates());
    out.printf(
        Locale.ROOT,
        "%-38s %12s %12s %12s %10s %10s %10s%n",
        "phase",
        "ingest ev/s",
        "counted ev/s",
        "max backlog",
        "fresh p50",
        "fresh p99",
        "fresh max");
    for (Phase phase : result.phases())
      out.printf(
          Locale.ROOT,
          "%-38s %,12.0f %,12.0f %,12d %8.0fms %8.0fms %8.0fms%n",
          phase.name(),
          phase.ingestEventsPerSecond(),
          phase.countedEventsPerSecond(),
          phase.maxBacklog(),
          phase.freshnessP50Millis(),
          phase.freshnessP99Millis(),
          phase.freshnessMaxMillis());
    out.println("freshness: from the answer to a probe's POST until its user's aggregate shows it"
        + " (in the baseline, the answer comes after counting)");
  }
}

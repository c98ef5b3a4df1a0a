package dev.tidings.bench;

import dev.tidings.Json;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.activity.IntakeResult;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.storage.Database;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import tools.jackson.databind.node.ArrayNode;

/**
 * Real-time event intake: the same generated events, in the same batches, stored three ways by several
 * concurrent callers (virtual threads), each way from an empty table after a short warm-up:
 *
 * <ol>
 *   <li>through the bulk importer, one import per batch, as the events route did before it had a path of its
 *       own: the batch written out as JSON Lines and imported all or nothing (COPY, staging, merge);
 *   <li>by the direct path, {@link ActivityIntake#record(java.util.List)}: one {@code INSERT ... unnest}
 *       per batch;
 *   <li>by the direct path over HTTP: each batch posted as a JSON array to the events route, so reading the
 *       request and parsing the JSON count too.
 * </ol>
 *
 * Some event ids repeat (within a batch and from much earlier batches), so every way has replays to tell
 * apart; each phase must end with exactly one row per distinct id, or the benchmark fails.
 */
public final class EventIntakeBench {
  /** What to run: {@code events} in batches of {@code batch}, sent by {@code callers} at a time. */
  public record Options(int events, int batch, int callers, long seed) {
    public Options {
      if (events < 1) throw new IllegalArgumentException("events must be >= 1, got " + events);
      if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
      if (callers < 1) throw new IllegalArgumentException("callers must be >= 1, got " + callers);
    }
  }

  /** One way of storing the events: throughput over the phase and latency per batch. */
  public record Phase(
      String name,
      long events,
      long stored,
      long duplicates,
      double seconds,
      double eventsPerSecond,
      double p50Millis,
      double p99Millis) {}

  /** Everything measured; {@code repeatedIds} of the events repeat an earlier event's id. */
  public record Result(
      int events, int batch, int callers, long repeatedIds, String database, List<Phase> phases) {}

  /** The events route served on the intake under test, for the HTTP phase; closing it stops the server. */
  public record Endpoint(URI events, String apiKey, Runnable stop) implements AutoCloseable {
    @Override
    public void close() {
      stop.run();
    }
  }

  /** How far a phase is, for a progress display. */
  public interface ProgressDisplay {
    Tracker start(String task, long total);
  }

  private static final int WARM_UP_BATCHES = 20;
  private static final Instant WEEK_END = Instant.parse("2026-11-23T00:00:00Z");
  private static final EventType[] TYPES = {
    EventType.VIEW, EventType.VIEW, EventType.VIEW, EventType.VIEW, EventType.CLICK,
    EventType.CLICK, EventType.OPEN, EventType.EMAIL_CLICK, EventType.ADD_TO_CART,
        EventType.PURCHASE
  };

  private EventIntakeBench() {}

  public static Result run(
      Database database,
      Options options,
      Function<ActivityIntake, Endpoint> serve,
      ProgressDisplay progress,
      PrintStream out) {
    var intake = new ActivityIntake(database.jdbi(), InstantSource.system());
    List<ActivityEvent> events = generate("ev", options);
    List<Batch> batches = batches(events, options.batch());
    long distinct =
        events.stream().map(e -> e.eventId().orElseThrow()).distinct().count();
    List<Batch> warmUp = batches(generate("warm", options), options.batch())
        .subList(0, Math.min(WARM_UP_BATCHES, batches.size()));
    out.printf(
        Locale.ROOT,
        "%,d events (%,d repeat an earlier id) in batches of %,d, %d concurrent callers%n",
        events.size(),
        events.size() - distinct,
        options.batch(),
        options.callers());

    var phases = new ArrayList<Phase>();
    var bulk = new BulkImportPerBatch(intake);
    phases.add(phase(
        database,
        "(a) bulk importer per batch (before)",
        batches,
        warmUp,
        bulk,
        options,
        progress));
    phases.add(phase(
        database,
        "(b) direct: ActivityIntake.record",
        batches,
        warmUp,
        batch -> intake.record(batch.events()),
        options,
        progress));
    try (Endpoint endpoint = serve.apply(intake);
        var http = new HttpPoster(endpoint)) {
      phases.add(phase(
          database, "(c) direct over HTTP, JSON arrays", batches, warmUp, http, options, progress));
    }
    for (Phase phase : phases) {
      if (phase.stored() != distinct || phase.duplicates() != events.size() - distinct) {
        throw new IllegalStateException(phase.name() + " stored " + phase.stored() + " events and "
            + phase.duplicates() + " duplicates; expected " + distinct + " and "
            + (events.size() - distinct));
      }
    }
    var result = new Result(
        events.size(),
        options.batch(),
        options.callers(),
        events.size() - distinct,
        database.describe(),
        List.copyOf(phases));
    print(result, out);
    return result;
  }

  /**
   * Events sent together, with the JSON array a client would post for them: serialised before the phases,
   * so the HTTP phase measures the server's work (reading, parsing, storing), not the client's.
   */
  record Batch(List<ActivityEvent> events, byte[] jsonArray) {}

  /** Stores one batch and says what it stored. */
  @FunctionalInterface
  interface BatchWriter {
    IntakeResult write(Batch batch) throws Exception;
  }

  private static Phase phase(
      Database database,
      String name,
      List<Batch> batches,
      List<Batch> warmUp,
      BatchWriter writer,
      Options options,
      ProgressDisplay progress) {
    try {
      empty(database);
      concurrently("warm-up", warmUp, writer, options.callers(), done -> {});
      empty(database);
      long total = batches.stream().mapToLong(batch -> batch.events().size()).sum();
      try (Tracker tracker = progress.start(name, total)) {
        return concurrently(name, batches, writer, options.callers(), tracker::stepTo);
      }
    } catch (Exception e) {
      throw new IllegalStateException(name + " failed: " + e.getMessage(), e);
    }
  }

  private static void empty(Database database) {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE activity_events"));
  }

  private interface Done {
    void stepTo(long events);
  }

  /** {@code callers} virtual threads take the next batch until none is left; each batch's latency is kept. */
  private static Phase concurrently(
      String name, List<Batch> batches, BatchWriter writer, int callers, Done done)
      throws Exception {
    long[] nanos = new long[batches.size()];
    var next = new AtomicInteger();
    var events = new AtomicLong();
    var stored = new AtomicLong();
    var duplicates = new AtomicLong();
    long started = System.nanoTime();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      var running = new ArrayList<Future<?>>();
      for (int c = 0; c < callers; c++) {
        running.add(threads.submit(() -> {
          for (int i = next.getAndIncrement(); i < batches.size(); i = next.getAndIncrement()) {
            Batch batch = batches.get(i);
            long start = System.nanoTime();
            IntakeResult result = writer.write(batch);
            nanos[i] = System.nanoTime() - start;
            stored.addAndGet(result.accepted());
            duplicates.addAndGet(result.duplicates());
            done.stepTo(events.addAndGet(batch.events().size()));
          }
          return null;
        }));
      }
      for (Future<?> caller : running) {
        try {
          caller.get();
        } catch (ExecutionException e) {
          next.set(batches.size()); // the other callers stop after their current batch
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Arrays.sort(nanos);
    return new Phase(
        name,
        events.get(),
        stored.get(),
        duplicates.get(),
        seconds,
        events.get() / seconds,
        percentile(nanos, 0.50) / 1e6,
        percentile(nanos, 0.99) / 1e6);
  }

  private static long percentile(long[] sorted, double share) {
    int index = (int) Math.ceil(share * sorted.length) - 1;
    return sorted[Math.max(0, index)];
  }

  /**
   * Events of a week of a shop: mostly views, some clicks, opens, carts and purchases, by 10,000 users over
   * 5,000 products. About 3% repeat the id of an earlier event of their batch (a client sending twice), and
   * 2% the id of an event far enough back that its batch is long stored (a replay after a retry).
   */
  static List<ActivityEvent> generate(String prefix, Options options) {
    var random = new SplittableRandom(options.seed());
    int farBack = 2 * options.callers() * options.batch();
    var ids = new String[options.events()];
    var events = new ArrayList<ActivityEvent>(options.events());
    for (int i = 0; i < options.events(); i++) {
      int batchStart = i - i % options.batch();
      double draw = random.nextDouble();
      if (draw < 0.03 && i > batchStart) {
        ids[i] = ids[random.nextInt(batchStart, i)];
      } else if (draw < 0.05 && batchStart > farBack) {
        ids[i] = ids[random.nextInt(0, batchStart - farBack)];
      } else {
        ids[i] = prefix + "-" + i;
      }
      EventType type = TYPES[random.nextInt(TYPES.length)];
      boolean bought = type == EventType.PURCHASE;
      events.add(new ActivityEvent(
          Optional.of(ids[i]),
          "u-" + random.nextInt(10_000),
          type,
          "p-" + random.nextInt(5_000),
          WEEK_END.minusSeconds(random.nextLong(7 * 24 * 3600)),
          bought || type == EventType.ADD_TO_CART ? 1 + random.nextInt(3) : 1,
          bought
              ? Optional.of(BigDecimal.valueOf(100 + random.nextInt(20_000), 2))
              : Optional.empty()));
    }
    return events;
  }

  private static List<Batch> batches(List<ActivityEvent> events, int size) {
    var batches = new ArrayList<Batch>();
    for (int from = 0; from < events.size(); from += size) {
      var batch = events.subList(from, Math.min(events.size(), from + size));
      ArrayNode array = Json.MAPPER.createArrayNode();
      batch.forEach(event -> array.add(ActivityIntake.toJson(event)));
      batches.add(new Batch(batch, Json.MAPPER.writeValueAsBytes(array)));
    }
    return batches;
  }

  /** The events route's old way: the batch written out as JSON Lines and bulk-imported, all or nothing. */
  private record BulkImportPerBatch(ActivityIntake intake) implements BatchWriter {
    @Override
    public IntakeResult write(Batch batch) {
      var lines = new ByteArrayOutputStream(batch.jsonArray().length);
      for (ActivityEvent event : batch.events()) {
        lines.writeBytes(Json.MAPPER.writeValueAsBytes(ActivityIntake.toJson(event)));
        lines.write('\n');
      }
      var report = intake.importEvents(
          new ByteArrayInputStream(lines.toByteArray()),
          Format.JSON_LINES,
          ImportOptions.allOrNothing());
      if (!report.committed())
        throw new IllegalStateException(
            "a batch did not import: " + report.failure().orElse("") + " "
                + report.errors().stream().limit(3).toList());
      return new IntakeResult(report.imported(), report.ignored());
    }
  }

  /** Posts each batch's JSON array to the events route, as a client of a node would. */
  private static final class HttpPoster implements BatchWriter, AutoCloseable {
    private final HttpClient client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    private final Endpoint endpoint;

    HttpPoster(Endpoint endpoint) {
      this.endpoint = endpoint;
    }

    @Override
    public IntakeResult write(Batch batch) throws Exception {
      var request = HttpRequest.newBuilder(endpoint.events())
          .timeout(Duration.ofSeconds(60))
          .header("Authorization", "Bearer " + endpoint.apiKey())
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(batch.jsonArray()))
          .build();
      var response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 202) {
        throw new IllegalStateException("POST " + endpoint.events() + " answered "
            + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8));
      }
      var answer = Json.MAPPER.readTree(response.body());
      return new IntakeResult(
          answer.path("accepted").asLong(), answer.path("duplicates").asLong());
    }

    @Override
    public void close() {
      client.close();
    }
  }

  static void print(Result result, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "Event intake benchmark: %,d events in batches of %,d, %d concurrent callers%n",
        result.events(),
        result.batch(),
        result.callers());
    out.printf(
        Locale.ROOT,
        "%-38s %10s %9s %9s %9s %10s %10s%n",
        "phase",
        "events/s",
        "p50 ms",
        "p99 ms",
        "seconds",
        "stored",
        "duplicates");
    for (Phase phase : result.phases()) {
      out.printf(
          Locale.ROOT,
          "%-38s %,10.0f %9.1f %9.1f %9.2f %,10d %,10d%n",
          phase.name(),
          phase.eventsPerSecond(),
          phase.p50Millis(),
          phase.p99Millis(),
          phase.seconds(),
          phase.stored(),
          phase.duplicates());
    }
  }
}

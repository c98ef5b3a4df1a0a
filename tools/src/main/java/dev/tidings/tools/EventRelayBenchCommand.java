package dev.tidings.tools;

import com.sun.net.httpserver.HttpServer;
import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.DomainEvent;
import dev.tidings.events.EventListener;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.EventRelay;
import dev.tidings.events.EventRoutes;
import dev.tidings.events.delivery.Bounced;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Opened;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.storage.Database;
import dev.tidings.webhooks.EndpointFields;
import dev.tidings.webhooks.RetrySchedule;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoints;
import dev.tidings.webhooks.WebhookFanOut;
import dev.tidings.webhooks.WebhookMetrics;
import dev.tidings.webhooks.WebhookSender;
import dev.tidings.webhooks.WebhookUrls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "event-relay",
    mixinStandardHelpOptions = true,
    description = {
      "Events relayed: writes the funnel's events into the outbox (rows of --per-row events, as batches of",
      "receipts write them: 90%% opened, 6%% clicked, 4%% bounced), then measures how fast the relay moves them",
      "into the log alone (the path's ceiling) and how fast they are relayed and applied by the listeners a",
      "worker runs (suppressions, experiment counts, open hours), each on its own queue in the same",
      "database, and then with a webhook endpoint too, every event signed and POSTed through the guarded",
      "fetcher to a receiver on this machine. Prints events/s for each. Uses TIDINGS_DB_URL when set (in a",
      "schema of its own, dropped afterwards), else a fresh embedded PostgreSQL."
    })
final class EventRelayBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--events",
      defaultValue = "300000",
      description = "events per phase (default ${DEFAULT-VALUE})")
  int events;

  @Option(
      names = "--per-row",
      defaultValue = "1000",
      description = "events per outbox row, one emitter's transaction (default ${DEFAULT-VALUE})")
  int perRow;

  @Option(
      names = "--webhook-events",
      defaultValue = "20000",
      description =
          "events of the phase with a webhook endpoint, each POSTed to a receiver on this machine"
              + " (default ${DEFAULT-VALUE})")
  int webhookEvents;

  @Option(
      names = "--webhook-senders",
      defaultValue = "8",
      description = "webhook senders, as a worker runs them (default ${DEFAULT-VALUE})")
  int webhookSenders;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  /** One phase's figures. */
  record Phase(String name, long events, double seconds, double eventsPerSecond) {}

  record Result(int events, int perRow, double writtenPerSecond, List<Phase> phases) {}

  @Override
  public Integer call() throws IOException {
    if (events < 1 || perRow < 1)
      throw new UsageException("--events and --per-row must be at least 1");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-event-relay");
        var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 12)) {
      Database database = throwaway.database();
      System.out.println("database: " + database.describe());
      List<Phase> phases = new ArrayList<>();

      double written = write(database);
      System.out.printf(Locale.ROOT, "written into the outbox: %,.0f events/s%n", written);
      long start = System.nanoTime();
      long relayed;
      try (var queue = ThrowawayQueues.queueTables(database);
          var progress = ProgressTracker.of("relayed into the log", events, "events")) {
        var relay = new EventRelay(
            database.jdbi(),
            queue,
            new EventRoutes(List.of()),
            InstantSource.system(),
            new SimpleMeterRegistry());
        relayed = 0;
        while (relayed < events) {
          relayed += relay.relayOnce().orElse(0);
          progress.stepTo(relayed);
        }
        // timed before the queue and the progress line close: their closing is not the relay's
        phases.add(report("log only (the relay's own ceiling)", relayed, start));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }

      write(database);
      Map<CloudEventType, Long> expected = expected();
      List<Counting> listeners = BenchEventsOut.funnelListeners(database).stream()
          .map(listener -> new Counting(listener, expected))
          .toList();
      start = System.nanoTime();
      try (var out = BenchEventsOut.start(database, List.copyOf(listeners));
          var progress = ProgressTracker.of("relayed and applied", events, "events")) {
        while (!listeners.stream().allMatch(Counting::done)) {
          progress.stepTo(
              listeners.stream().mapToLong(c -> c.applied.get()).min().orElse(0));
          Thread.sleep(20);
        }
        phases.add(report("relayed and applied by the funnel's 3 listeners", events, start));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }

      phases.add(withWebhooks(database));

      if (json != null) {
        Json.MAPPER
            .writerWithDefaultPrettyPrinter()
            .writeValue(json.toFile(), new Result(events, perRow, written, phases));
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }

  /**
   * The funnel's listeners and a webhook endpoint that hears every type, POSTed through the guarded
   * fetcher, signed, to a receiver on this machine that answers 204: done when it has every event.
   */
  private Phase withWebhooks(Database database) throws IOException {
    int saved = events;
    events = webhookEvents;
    try (var receiver = new CountingReceiver();
        var fetcher = new GuardedFetcher(
            FetchAllowance.everything(), WebhookSender.LIMITS, new SimpleMeterRegistry())) {
      write(database);
      Map<CloudEventType, Long> expected = expected();
      var clock = InstantSource.system();
      var endpoints = new WebhookEndpoints(
          database.jdbi(), new WebhookUrls(FetchAllowance.everything()), clock);
      endpoints.create(new EndpointFields(
          Optional.of(receiver.url()),
          Optional.of("bench receiver"),
          Optional.empty(),
          Optional.of(true)));
      List<Counting> listeners = BenchEventsOut.funnelListeners(database).stream()
          .map(listener -> new Counting(listener, expected))
          .toList();
      long start = System.nanoTime();
      try (var out = BenchEventsOut.start(
              database,
              queue -> {
                List<EventListener> all = new ArrayList<>(listeners);
                all.add(new WebhookFanOut(endpoints, queue));
                return all;
              },
              queue -> List.of(new WebhookSender(
                      endpoints,
                      new WebhookDeadLetters(database.jdbi(), queue, clock),
                      queue,
                      fetcher,
                      new WebhookSender.Options(RetrySchedule.DEFAULT, webhookSenders),
                      clock,
                      new WebhookMetrics(new SimpleMeterRegistry()))
                  .consumers()));
          var progress = ProgressTracker.of("relayed, applied and POSTed", events, "events")) {
        while (!listeners.stream().allMatch(Counting::done) || receiver.received() < events) {
          progress.stepTo(Math.min(
              receiver.received(),
              listeners.stream().mapToLong(c -> c.applied.get()).min().orElse(0)));
          Thread.sleep(20);
        }
        return report("the same, and every event POSTed to a webhook endpoint", events, start);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    } finally {
      events = saved;
    }
  }

  /** A receiver on this machine that answers every POST 204 and counts the distinct event ids. */
  private static final class CountingReceiver implements AutoCloseable {
    private final HttpServer server;
    private final Set<String> ids = ConcurrentHashMap.newKeySet();

    CountingReceiver() throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.createContext("/hook", exchange -> {
        exchange.getRequestBody().readAllBytes();
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        if (id != null) ids.add(id);
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
      });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    long received() {
      return ids.size();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  private static Phase report(String name, long events, long startNanos) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    var phase = new Phase(name, events, seconds, events / seconds);
    System.out.printf(
        Locale.ROOT,
        "%-50s %,10d events in %6.2f s  %,10.0f events/s%n",
        name,
        events,
        seconds,
        phase.eventsPerSecond());
    return phase;
  }

  /** The i-th event of a phase: 90% opened, 6% clicked, 4% bounced, of 50,000 subscribers. */
  private static DomainEvent event(int i, Instant at) {
    String message = "bench-message-" + i;
    String subscriber = "bench-subscriber-" + (i % 50_000);
    int kind = i % 50;
    if (kind < 45) return new Opened(message, 1, subscriber, at);
    if (kind < 48) return new Clicked(message, 1, subscriber, at);
    return new Bounced(message, 1, subscriber, at);
  }

  private Map<CloudEventType, Long> expected() {
    Map<CloudEventType, Long> counts = new EnumMap<>(CloudEventType.class);
    Instant at = Instant.now();
    for (int i = 0; i < events; i++) counts.merge(CloudEventType.of(event(i, at)), 1L, Long::sum);
    return counts;
  }

  /** Writes a phase's events in rows of --per-row; answers events written per second. */
  private double write(Database database) {
    long start = System.nanoTime();
    Instant at = Instant.now();
    try (var progress = ProgressTracker.of("written into the outbox", events, "events")) {
      for (int from = 0; from < events; from += perRow) {
        List<DomainEvent> row = new ArrayList<>(perRow);
        for (int i = from; i < Math.min(events, from + perRow); i++) row.add(event(i, at));
        database.jdbi().useTransaction(handle -> EventOutbox.ON.append(handle, row));
        progress.stepTo(Math.min(events, from + perRow));
      }
    }
    return events / ((System.nanoTime() - start) / 1e9);
  }

  /** A listener counted: done once it applied every event of its types. */
  private static final class Counting implements EventListener {
    private final EventListener listener;
    private final long expected;
    private final AtomicLong applied = new AtomicLong();

    Counting(EventListener listener, Map<CloudEventType, Long> byType) {
      this.listener = listener;
      this.expected = listener.types().stream()
          .mapToLong(type -> byType.getOrDefault(type, 0L))
          .sum();
    }

    boolean done() {
      return applied.get() >= expected;
    }

    @Override
    public String name() {
      return listener.name();
    }

    @Override
    public Set<CloudEventType> types() {
      return listener.types();
    }

    @Override
    public void apply(List<ReceivedEvent> events) throws Exception {
      listener.apply(events);
      applied.addAndGet(events.size());
    }
  }
}

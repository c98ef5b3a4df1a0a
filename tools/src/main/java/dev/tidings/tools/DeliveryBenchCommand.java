package dev.tidings.tools;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.DeliveryBench;
import dev.tidings.bench.Tracker;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "delivery",
    mixinStandardHelpOptions = true,
    description = {
      "Delivery receipts, seed 02's load test: receipts/s and the funnel's error",
      "against an oracle for Tidings end to end (JSON batches posted by",
      "--http-clients keep-alive clients to an in-process node's",
      "/api/v1/delivery-events, queued on RabbitMQ with --amqp-url or",
      "TIDINGS_AMQP_URL, else on queue tables, applied by --consumers consumers),",
      "Tidings' receipt store fed from the queue's side, the seed's optimistic SQL",
      "and its pessimistic design (on --pessimistic-receipts of its own). Uses",
      "TIDINGS_DB_URL when set (in a schema of its own, dropped afterwards), else",
      "a fresh embedded PostgreSQL."
    })
final class DeliveryBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--messages",
      defaultValue = "100000",
      description = "messages (default ${DEFAULT-VALUE})")
  int messages;

  @Option(
      names = "--receipts",
      defaultValue = "1000000",
      description = "receipts (default ${DEFAULT-VALUE})")
  int receipts;

  @Option(
      names = "--batch",
      defaultValue = "1000",
      description = "receipts per batch (default ${DEFAULT-VALUE})")
  int batch;

  @Option(
      names = "--consumers",
      defaultValue = "4",
      description = "concurrent consumers (default ${DEFAULT-VALUE})")
  int consumers;

  @Option(
      names = "--pessimistic-receipts",
      defaultValue = "50000",
      description =
          "receipts for the pessimistic baseline, 0 to skip it (default ${DEFAULT-VALUE})")
  int pessimisticReceipts;

  @Option(
      names = "--ways",
      split = ",",
      defaultValue = "http,store,optimistic,pessimistic",
      description = "which ways to measure, comma-separated (default ${DEFAULT-VALUE})")
  List<String> ways = new ArrayList<>();

  @Option(
      names = "--http-clients",
      defaultValue = "4",
      description = "concurrent HTTP clients of the end-to-end way (default ${DEFAULT-VALUE})")
  int httpClients;

  @Option(
      names = "--amqp-url",
      description =
          "RabbitMQ for the end-to-end way (default: TIDINGS_AMQP_URL, else queue tables)")
  @Nullable URI amqpUrl;

  @Option(
      names = "--seed",
      defaultValue = "2",
      description = "seed of the generated receipts (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--events-out",
      defaultValue = "worker",
      description =
          "what runs beside the store with events on: worker (the relay and the funnel's listeners,"
              + " as a worker runs them), relay (the relay alone, to the log, no listener) or outbox"
              + " (the events written, nothing relaying them) (default ${DEFAULT-VALUE})")
  String eventsOut;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (messages < 1) throw new UsageException("--messages must be at least 1");
    if (receipts < messages) throw new UsageException("--receipts must be at least --messages");
    if (batch < 1 || consumers < 1)
      throw new UsageException("--batch and --consumers must be at least 1");
    if (pessimisticReceipts < 0)
      throw new UsageException("--pessimistic-receipts must not be negative");
    if (httpClients < 1) throw new UsageException("--http-clients must be at least 1");
    Set<DeliveryBench.Way> chosen = EnumSet.noneOf(DeliveryBench.Way.class);
    for (String way : ways) {
      try {
        chosen.add(DeliveryBench.Way.valueOf(way.trim().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException unknown) {
        throw new UsageException(
            "--ways takes http, store, optimistic and pessimistic, not '" + way + "'");
      }
    }
    if (chosen.isEmpty()) throw new UsageException("--ways must name at least one way");
    if (!Set.of("worker", "relay", "outbox").contains(eventsOut))
      throw new UsageException(
          "--events-out takes worker, relay or outbox, not '" + eventsOut + "'");
    var settings = settings();
    Logging.configure(settings.logFormat());
    // One access-log line per request would bury the figures.
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger("tidings.access")
        .setLevel(Level.WARN);
    Optional<URI> rabbit = Optional.ofNullable(amqpUrl).or(settings::amqpUrl);
    try (var scratch = ScratchDirectory.create("tidings-bench-delivery");
        var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 2 * consumers + 4)) {
      System.out.println("database: " + throwaway.database().describe());
      var result = DeliveryBench.run(
          throwaway.database(),
          new DeliveryBench.Options(
              messages, receipts, batch, consumers, pessimisticReceipts, seed, chosen, httpClients),
          database ->
              BenchDeliveryPipeline.start(database, rabbit, consumers, settings.maxBodyBytes()),
          switch (eventsOut) {
            case "outbox" -> database -> () -> {};
            case "relay" -> database -> BenchEventsOut.start(database, List.of());
            default ->
              database -> BenchEventsOut.start(database, BenchEventsOut.funnelListeners(database));
          },
          DeliveryBenchCommand::progress,
          System.out);
      if (json != null) {
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), result);
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }

  private static Tracker progress(String task, long total) {
    return ProgressTracker.of(task, total, "receipts");
  }
}

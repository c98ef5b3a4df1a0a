package dev.tidings.cli;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.app.ThrowawayDatabase;
import dev.tidings.bench.DeliveryBench;
import dev.tidings.bench.Tracker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "delivery",
    mixinStandardHelpOptions = true,
    description = {
      "Delivery receipts applied from the queue to PostgreSQL, seed 02's load test: receipts/s and the",
      "funnel's error against an oracle for Tidings' receipt store, the seed's optimistic SQL and its",
      "pessimistic design (on --pessimistic-receipts of its own), each with --consumers concurrent",
      "consumers. Uses TIDINGS_DB_URL when set (in a schema of its own, dropped afterwards), else a",
      "fresh embedded PostgreSQL."
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
      names = "--seed",
      defaultValue = "2",
      description = "seed of the generated receipts (default ${DEFAULT-VALUE})")
  long seed;

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
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-delivery");
        var throwaway = ThrowawayDatabase.open(settings, scratch.path(), consumers + 2)) {
      System.out.println("database: " + throwaway.database().describe());
      var result = DeliveryBench.run(
          throwaway.database(),
          new DeliveryBench.Options(
              messages, receipts, batch, consumers, pessimisticReceipts, seed),
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
    return Progress.of(task, total, "receipts");
  }
}

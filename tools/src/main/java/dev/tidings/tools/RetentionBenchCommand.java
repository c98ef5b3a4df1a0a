package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.RetentionBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "retention",
    mixinStandardHelpOptions = true,
    description = {
      "Removing a month of old messages under load: loads delivered messages (status and two funnel steps",
      "each) aged 181-210 days, then applies receipts through the delivery store (send records of new emails",
      "and their deliveries) alone, while the retention job removes the month, and after. Prints rows removed/s",
      "and the receipts' throughput and per-batch p50/p99 in each phase. Uses TIDINGS_DB_URL when set (in a",
      "schema of its own, dropped afterwards), else a fresh embedded PostgreSQL."
    })
final class RetentionBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--messages",
      defaultValue = "10000000",
      description = "old messages to load and remove (default ${DEFAULT-VALUE})")
  long messages;

  @Option(
      names = "--batch",
      defaultValue = "5000",
      description =
          "messages removed per transaction, as TIDINGS_RETENTION_BATCH (default ${DEFAULT-VALUE})")
  int batch;

  @Option(
      names = "--receipts",
      defaultValue = "200",
      description = "receipts per foreground batch (default ${DEFAULT-VALUE})")
  int receipts;

  @Option(
      names = "--seconds",
      defaultValue = "15",
      description =
          "seconds the foreground is measured alone, before and after (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (messages < 1 || batch < 1 || receipts < 2 || seconds < 1)
      throw new UsageException(
          "--messages, --batch and --seconds must be at least 1, --receipts at least 2");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-retention")) {
      RetentionBench.Result result;
      try (var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 4)) {
        System.out.println("database: " + throwaway.database().describe());
        result = RetentionBench.run(
            throwaway.database(),
            new RetentionBench.Options(messages, batch, receipts, Duration.ofSeconds(seconds)),
            (task, total) -> ProgressTracker.of(task, total, "messages"),
            System.out);
      }
      if (json != null) {
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), result);
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }
}

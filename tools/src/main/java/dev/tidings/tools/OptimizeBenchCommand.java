package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.OptimizeBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "optimize",
    mixinStandardHelpOptions = true,
    description = {
      "Seed 05's daily optimisation: items with several configurations whose counts summarise many impressions",
      "(loaded with COPY), then the day's changes produced in one streaming pass and applied in one transaction,",
      "beside the seed's way (items updated one by one, timed on a sample and extrapolated). Uses TIDINGS_DB_URL",
      "when set (in a schema of its own, dropped afterwards), else a fresh embedded PostgreSQL."
    })
final class OptimizeBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--items",
      defaultValue = "1000000",
      description = "items (default ${DEFAULT-VALUE})")
  int items;

  @Option(
      names = "--configurations",
      defaultValue = "3",
      description = "configurations per item, the first current (default ${DEFAULT-VALUE})")
  int configurations;

  @Option(
      names = "--impressions",
      defaultValue = "100000000",
      description = "impressions the counts summarise, about (default ${DEFAULT-VALUE})")
  long impressions;

  @Option(
      names = "--sample",
      defaultValue = "20000",
      description = "items the seed's one-by-one way is timed on (default ${DEFAULT-VALUE})")
  int sample;

  @Option(names = "--seed", defaultValue = "5", description = "seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (items < 1
        || configurations < 2
        || configurations > 9
        || impressions < items
        || sample < 1
        || sample > items)
      throw new UsageException(
          "--items and --sample must be at least 1 (--sample at most --items), --configurations 2 to 9,"
              + " and --impressions at least --items");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-optimize")) {
      OptimizeBench.Result result;
      try (var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 4)) {
        System.out.println("database: " + throwaway.database().describe());
        result = OptimizeBench.run(
            throwaway.database(),
            new OptimizeBench.Options(items, configurations, impressions, sample, seed),
            (task, total) -> ProgressTracker.of(task, total, "items"),
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

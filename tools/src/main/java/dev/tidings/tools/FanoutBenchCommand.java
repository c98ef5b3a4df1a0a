package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.FanoutBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "fanout",
    mixinStandardHelpOptions = true,
    description = {
      "Seed 04's fan-out: one publish to every follower of a brand, then many publishes to smaller brands, into",
      "per-day buckets; then digest reads of users with a week of notifications; beside the seed's first",
      "design (one row per notification in one indexed table). Prints seconds, events/s, heap growth and read",
      "p50/p99. Uses TIDINGS_DB_URL when set (in a schema of its own, dropped afterwards), else a fresh",
      "embedded PostgreSQL."
    })
final class FanoutBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--followers",
      defaultValue = "1000000",
      description = "followers of the big brand (default ${DEFAULT-VALUE})")
  int followers;

  @Option(
      names = "--publishes",
      defaultValue = "100",
      description = "publishes to smaller brands (default ${DEFAULT-VALUE})")
  int publishes;

  @Option(
      names = "--readers",
      defaultValue = "1000",
      description = "users whose digests are read (default ${DEFAULT-VALUE})")
  int readers;

  @Option(names = "--seed", defaultValue = "7", description = "seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (followers < 1 || publishes < 1 || readers < 1 || readers > followers)
      throw new UsageException(
          "--followers, --publishes and --readers must be at least 1, and --readers at most --followers");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-fanout")) {
      FanoutBench.Result result;
      try (var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 4)) {
        System.out.println("database: " + throwaway.database().describe());
        result = FanoutBench.run(
            throwaway.database(),
            new FanoutBench.Options(followers, publishes, readers, seed),
            (task, total) -> ProgressTracker.of(task, total, "subscribers"),
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

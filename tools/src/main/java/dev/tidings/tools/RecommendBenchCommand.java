package dev.tidings.tools;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.RecommendBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "recommend",
    mixinStandardHelpOptions = true,
    description = {
      "The recommender's cost per call: p50/p99/max for k=10 from one thread and from several, the",
      "blend of the live algorithms against the affinity-popularity recommender it replaced, on the same",
      "seeded shop (aggregates for the blend, the same activity as events for the baseline). Uses",
      "TIDINGS_DB_URL when set (in a schema of its own, dropped afterwards), else a fresh embedded PostgreSQL."
    })
final class RecommendBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--users",
      defaultValue = "100000",
      description = "users with activity (default ${DEFAULT-VALUE})")
  int users;

  @Option(
      names = "--products",
      defaultValue = "20000",
      description = "products (default ${DEFAULT-VALUE})")
  int products;

  @Option(
      names = "--calls",
      defaultValue = "10000",
      description = "calls measured per run (default ${DEFAULT-VALUE})")
  int calls;

  @Option(
      names = "--threads",
      defaultValue = "8",
      description = "callers of the concurrent run (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--seed",
      defaultValue = "7",
      description = "seed of the generated shop (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (users < 1) throw new UsageException("--users must be at least 1");
    if (products < 20) throw new UsageException("--products must be at least 20");
    if (calls < 100) throw new UsageException("--calls must be at least 100");
    if (threads < 1) throw new UsageException("--threads must be at least 1");
    var settings = settings();
    Logging.configure(settings.logFormat());
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger("tidings.access")
        .setLevel(Level.WARN);
    try (var scratch = ScratchDirectory.create("tidings-bench-recommend");
        var throwaway = ThrowawayDatabase.open(settings, scratch.path(), threads * 2 + 4)) {
      System.out.println("database: " + throwaway.database().describe());
      var result = RecommendBench.run(
          throwaway.database(),
          new RecommendBench.Options(users, products, calls, threads, seed),
          System.out);
      if (json != null) {
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), result);
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }
}

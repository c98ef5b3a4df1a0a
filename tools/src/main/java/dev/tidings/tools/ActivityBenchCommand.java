package dev.tidings.tools;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.ActivityBench;
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
    name = "activity",
    mixinStandardHelpOptions = true,
    description = {
      "Activity in, aggregates out: shop sessions posted to the events route by concurrent clients while the",
      "node counts them into the default aggregations in the background; prints the intake's events/s, how long",
      "until all is counted, and the freshness of the aggregates under that load (p50/p99), beside the same",
      "events counted in the request's transaction. Uses TIDINGS_DB_URL when set (in a schema of its own,",
      "dropped afterwards), else a fresh embedded PostgreSQL."
    })
final class ActivityBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--events",
      defaultValue = "300000",
      description = "events per phase (default ${DEFAULT-VALUE})")
  int events;

  @Option(
      names = "--batch",
      defaultValue = "500",
      description = "events per request (default ${DEFAULT-VALUE})")
  int batch;

  @Option(
      names = "--callers",
      defaultValue = "8",
      description = "concurrent clients (default ${DEFAULT-VALUE})")
  int callers;

  @Option(
      names = "--users",
      defaultValue = "100000",
      description = "distinct users (default ${DEFAULT-VALUE})")
  int users;

  @Option(
      names = "--products",
      defaultValue = "20000",
      description = "products (default ${DEFAULT-VALUE})")
  int products;

  @Option(
      names = "--counters",
      defaultValue = "1",
      description = "nodes counting at once (default ${DEFAULT-VALUE})")
  int counters;

  @Option(
      names = "--paced",
      defaultValue = "4000",
      description = "events/s of a second, paced phase that measures freshness at a sustained load;"
          + " 0 for none (default ${DEFAULT-VALUE})")
  int paced;

  @Option(
      names = "--seed",
      defaultValue = "7",
      description = "seed of the generated events (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (paced < 0) throw new UsageException("--paced must be 0 or more events/s");
    if (events < 1 || batch < 1 || callers < 1 || users < 1 || products < 1 || counters < 1)
      throw new UsageException(
          "--events, --batch, --callers, --users, --products and --counters must be at least 1");
    var settings = settings();
    Logging.configure(settings.logFormat());
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger("tidings.access")
        .setLevel(Level.WARN);
    try (var scratch = ScratchDirectory.create("tidings-bench-activity")) {
      ActivityBench.Result result;
      try (var throwaway =
          ThrowawayDatabase.open(settings, scratch.path(), callers + counters + 6)) {
        System.out.println("database: " + throwaway.database().describe());
        result = ActivityBench.run(
            throwaway.database(),
            new ActivityBench.Options(
                events, batch, callers, users, products, counters, paced, seed),
            intake -> EventBenchCommand.serve(intake, settings),
            (task, total) -> ProgressTracker.of(task, total, "events"),
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

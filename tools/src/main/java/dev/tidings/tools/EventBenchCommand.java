package dev.tidings.tools;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import dev.tidings.Json;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.app.Logging;
import dev.tidings.bench.EventIntakeBench;
import dev.tidings.bench.Tracker;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import dev.tidings.web.HttpServer;
import dev.tidings.web.activity.ActivityRoutes;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "events",
    mixinStandardHelpOptions = true,
    description = {
      "Real-time event intake: events/s and per-batch latency of the direct path against the bulk importer.",
      "Generates events (some with repeated ids) and stores them in batches from concurrent callers: (a) one",
      "bulk import per batch, as the events route did before, (b) ActivityIntake.record, (c) JSON arrays posted",
      "to the events route over HTTP. Uses TIDINGS_DB_URL when set (in a schema of its own, dropped",
      "afterwards), else a fresh embedded PostgreSQL."
    })
final class EventBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--events",
      defaultValue = "200000",
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
      description = "concurrent callers, each a virtual thread (default ${DEFAULT-VALUE})")
  int callers;

  @Option(
      names = "--seed",
      defaultValue = "7",
      description = "seed of the generated events (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (events < 1) throw new UsageException("--events must be at least 1");
    if (batch < 1) throw new UsageException("--batch must be at least 1");
    if (callers < 1) throw new UsageException("--callers must be at least 1");
    var settings = settings();
    Logging.configure(settings.logFormat());
    // One access-log line per request would bury the figures; the requests are counted by the
    // bench.
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger("tidings.access")
        .setLevel(Level.WARN);
    try (var scratch = ScratchDirectory.create("tidings-bench-events")) {
      Path work = scratch.path();
      EventIntakeBench.Result result;
      try (var throwaway = ThrowawayDatabase.open(settings, work, callers + 2)) {
        System.out.println("database: " + throwaway.database().describe());
        result = EventIntakeBench.run(
            throwaway.database(),
            new EventIntakeBench.Options(events, batch, callers, seed),
            intake -> serve(intake, settings),
            EventBenchCommand::progress,
            System.out);
      }
      if (json != null) {
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), result);
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }

  /** The events route alone, on an ephemeral port, with the node's body limits. */
  static EventIntakeBench.Endpoint serve(ActivityIntake intake, Settings settings) {
    var key = new Secret(UUID.randomUUID().toString());
    var server = HttpServer.start(
        new HttpServer.Options(0, key, Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new ActivityRoutes(intake, settings.maxBodyBytes(), settings.maxImportBytes())));
    return new EventIntakeBench.Endpoint(
        URI.create("http://127.0.0.1:" + server.port() + "/api/v1/events"),
        key.value(),
        server::close);
  }

  private static Tracker progress(String task, long total) {
    return ProgressTracker.of(task, total, "events");
  }
}

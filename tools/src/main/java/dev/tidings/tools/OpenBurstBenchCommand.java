package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.OpenBurstBench;
import dev.tidings.bench.OpenBurstBench.Paced;
import dev.tidings.bench.OpenBurstBench.Run;
import dev.tidings.bench.OpenBurstBench.Strategy;
import dev.tidings.bench.Tracker;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.message.MessageToken;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "open-burst",
    mixinStandardHelpOptions = true,
    description = {
      "Open-time slots end to end: --nodes Tidings processes on one Redis and one PostgreSQL, each"
          + " email's --slots image requests fired at once (random order, round robin over the nodes).",
      "Prints slot requests/s, p50/p95/p99 latency, computations per email, duplicates, fallbacks and"
          + " each node's heap, for Tidings' strategy and the seed-literal baseline in the same run."
    })
final class OpenBurstBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--emails",
      defaultValue = "4000",
      description = "emails measured per strategy (default ${DEFAULT-VALUE})")
  int emails;

  @Option(
      names = "--slots",
      defaultValue = "5",
      description = "product slots per email, 1 to 12 (default ${DEFAULT-VALUE})")
  int slots;

  @Option(
      names = "--nodes",
      defaultValue = "2",
      description = "Tidings node processes (default ${DEFAULT-VALUE})")
  int nodes;

  @Option(
      names = "--strategy",
      defaultValue = "both",
      description = "tidings, seed or both (default ${DEFAULT-VALUE})")
  String strategy = "both";

  @Option(
      names = "--in-flight",
      defaultValue = "64",
      description = "emails being loaded at once (default ${DEFAULT-VALUE})")
  int inFlight;

  @Option(
      names = "--warmup-emails",
      defaultValue = "300",
      description = "emails fired before each measurement, not counted (default ${DEFAULT-VALUE})")
  int warmupEmails;

  @Option(
      names = "--products",
      defaultValue = "500",
      description = "catalogue size loaded through the API (default ${DEFAULT-VALUE})")
  int products;

  @Option(
      names = "--redis-url",
      defaultValue = "redis://127.0.0.1:6379",
      description = "the Redis every node shares (default ${DEFAULT-VALUE})")
  URI redisUrl = URI.create("redis://127.0.0.1:6379");

  @Option(
      names = "--database-url",
      defaultValue = "jdbc:postgresql://127.0.0.1:5432/tidings_bench?user=postgres",
      description =
          "the PostgreSQL every node shares, created when missing (default ${DEFAULT-VALUE})")
  String databaseUrl = "jdbc:postgresql://127.0.0.1:5432/tidings_bench?user=postgres";

  @Option(
      names = "--jar",
      description =
          "the tools jar the nodes run (default: this one, else tools/target/tidings-tools.jar)")
  @Nullable Path jar;

  @Option(
      names = "--node-jvm-option",
      description =
          "an option for every node's JVM, repeatable; {node} is replaced by the node's name"
              + " (e.g. -XX:StartFlightRecording=filename=/tmp/{node}.jfr)")
  List<String> nodeJvmOptions = new ArrayList<>();

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (emails < 1) throw new UsageException("--emails must be at least 1");
    if (slots < 1 || slots > MessageToken.MAX_SLOTS)
      throw new UsageException(
          "--slots must be between 1 and " + MessageToken.MAX_SLOTS + " but was " + slots);
    if (nodes < 1) throw new UsageException("--nodes must be at least 1");
    if (inFlight < 1) throw new UsageException("--in-flight must be at least 1");
    if (warmupEmails < 0) throw new UsageException("--warmup-emails must not be negative");
    if (products < slots)
      throw new UsageException("--products must be at least --slots (" + slots + ")");
    List<Strategy> strategies = switch (strategy.toLowerCase(Locale.ROOT)) {
      case "tidings" -> List.of(Strategy.TIDINGS);
      case "seed" -> List.of(Strategy.SEED);
      case "both" -> List.of(Strategy.TIDINGS, Strategy.SEED);
      default ->
        throw new UsageException("--strategy must be tidings, seed or both but was " + strategy);
    };
    Path nodeJar = jar != null ? jar : runningJar();
    if (!Files.isRegularFile(nodeJar))
      throw new UsageException(nodeJar
          + " is not there: build it with ./mvnw -DskipTests package, or name one with --jar");
    Logging.configure(settings().logFormat());
    Path work = Files.createTempDirectory("tidings-open-burst-");
    var options = new OpenBurstBench.Options(
        emails,
        slots,
        nodes,
        inFlight,
        warmupEmails,
        products,
        redisUrl,
        databaseUrl,
        nodeJar.toAbsolutePath(),
        nodeJvmOptions,
        work);
    OpenBurstBench.ensureDatabase(databaseUrl);
    System.out.printf(
        "%,d emails x %d slots, %d emails at once, %d nodes, %d cores; node logs in %s%n",
        emails, slots, inFlight, nodes, Runtime.getRuntime().availableProcessors(), work);
    List<Run> runs = new ArrayList<>();
    for (Strategy each : strategies) {
      Run run = OpenBurstBench.run(
          each, options, OpenBurstBenchCommand::progress, line -> System.out.println(line));
      runs.add(run);
      print(run);
    }
    if (runs.size() == 2 && runs.get(1).requestsPerSecond() > 0)
      System.out.printf(
          Locale.ROOT,
          "tidings / seed throughput: %.2fx%n",
          runs.get(0).requestsPerSecond() / runs.get(1).requestsPerSecond());
    if (json != null) {
      Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), runs);
      System.out.println("figures written to " + json);
    }
    return 0;
  }

  private static void print(Run run) {
    System.out.printf(
        Locale.ROOT,
        "%-8s %,9.0f slot req/s  p50 %6.2f ms  p95 %6.2f ms  p99 %6.2f ms  max %7.2f ms"
            + "  computations/email %.3f  duplicates %,d  failed %,d  fallbacks %,d  heap MB %s%n",
        run.strategy(),
        run.requestsPerSecond(),
        run.p50Millis(),
        run.p95Millis(),
        run.p99Millis(),
        run.maxMillis(),
        run.computationsPerEmail(),
        run.duplicates(),
        run.failedRequests(),
        run.fallbacks(),
        run.heapUsedBytesPerNode().stream()
            .map(bytes -> Long.toString(bytes >> 20))
            .collect(Collectors.joining("/")));
    System.out.printf(
        Locale.ROOT,
        "%-8s re-opened (lists and cards cached): %,9.0f slot req/s  p50 %6.2f ms  p99 %6.2f ms%n",
        run.strategy(),
        run.reopenRequestsPerSecond(),
        run.reopenP50Millis(),
        run.reopenP99Millis());
    Paced paced = run.paced();
    System.out.printf(
        Locale.ROOT,
        "%-8s new emails at half the re-open rate (%,.0f offered): %,9.0f slot req/s  p50 %6.2f ms"
            + "  p99 %6.2f ms  max %7.2f ms  computations/email %.3f  duplicates %,d  failed %,d%n",
        run.strategy(),
        paced.offeredRequestsPerSecond(),
        paced.requestsPerSecond(),
        paced.p50Millis(),
        paced.p99Millis(),
        paced.maxMillis(),
        paced.computationsPerEmail(),
        paced.duplicates(),
        paced.failedRequests());
    if (run.reopenRequestsPerSecond() > 0)
      System.out.printf(
          Locale.ROOT,
          "%-8s first opens / re-opens: %.2fx%n",
          run.strategy(),
          run.requestsPerSecond() / run.reopenRequestsPerSecond());
  }

  private static Path runningJar() {
    try {
      var location =
          OpenBurstBenchCommand.class.getProtectionDomain().getCodeSource().getLocation();
      Path path = Path.of(location.toURI());
      if (path.toString().endsWith(".jar")) return path;
    } catch (Exception notAJar) {
      // classes from a directory: fall back to the build's jar
    }
    return Path.of("tools", "target", "tidings-tools.jar");
  }

  private static Tracker progress(String task, long total) {
    return ProgressTracker.of(task, total, "requests");
  }
}

package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.ComputeOnceBench;
import dev.tidings.bench.ComputeOnceBench.Run;
import dev.tidings.bench.ComputeOnceBench.Subject;
import dev.tidings.bench.Tracker;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.coordination.CoordinationException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "compute-once",
    mixinStandardHelpOptions = true,
    description = {
      "Compute-once calls/s and p50/p99 call time, in-process and on Redis against the BLMOVE baseline.",
      "Several callers per key over many keys, as the open-time slots of one e-mail arrive together:"
          + " (a) the in-process adapter, (b) the previous Redis approach (every waiter blocks in BLMOVE"
          + " on one of 8 blocking connections per node) as the baseline, (c) the Redis adapter (one"
          + " flight per key per node, pub/sub wake-ups).",
      "Redis runs simulate --nodes nodes in this process; they are skipped with a notice when Redis is"
          + " not reachable."
    })
final class ComputeOnceBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--redis-url",
      defaultValue = "redis://127.0.0.1:6379",
      description = "Redis to measure against (default ${DEFAULT-VALUE})")
  URI redisUrl = URI.create("redis://127.0.0.1:6379");

  @Option(
      names = "--keys",
      defaultValue = "40000",
      description = "keys measured per adapter (default ${DEFAULT-VALUE})")
  int keys;

  @Option(
      names = "--waiters",
      defaultValue = "5",
      description = "callers per key, arriving together (default ${DEFAULT-VALUE})")
  int waiters;

  @Option(
      names = "--in-flight",
      defaultValue = "40",
      description = "keys being called at once; times --waiters callers (default ${DEFAULT-VALUE})")
  int inFlight;

  @Option(
      names = "--compute-ms",
      defaultValue = "1",
      description = "how long the winner computes, in ms (default ${DEFAULT-VALUE})")
  int computeMillis;

  @Option(
      names = "--nodes",
      defaultValue = "2",
      description = "Redis nodes simulated in this process (default ${DEFAULT-VALUE})")
  int nodes;

  @Option(
      names = "--warmup-keys",
      defaultValue = "4000",
      description = "keys run before each measurement, not counted (default ${DEFAULT-VALUE})")
  int warmupKeys;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  /** Everything measured, for --json. */
  record Result(
      int keys,
      int waitersPerKey,
      int keysInFlight,
      int computeMillis,
      int nodes,
      List<Run> runs) {}

  @Override
  public Integer call() throws IOException {
    if (keys < 1) throw new UsageException("--keys must be at least 1");
    if (waiters < 1) throw new UsageException("--waiters must be at least 1");
    if (inFlight < 1) throw new UsageException("--in-flight must be at least 1");
    if (computeMillis < 0) throw new UsageException("--compute-ms must not be negative");
    if (nodes < 1) throw new UsageException("--nodes must be at least 1");
    if (warmupKeys < 0) throw new UsageException("--warmup-keys must not be negative");
    Logging.configure(settings().logFormat());
    var options = new ComputeOnceBench.Options(
        keys, waiters, inFlight, Duration.ofMillis(computeMillis), warmupKeys);
    System.out.printf(
        "%,d keys x %d callers, %d keys at once, compute %d ms, %d cores%n",
        keys, waiters, inFlight, computeMillis, Runtime.getRuntime().availableProcessors());
    List<Run> runs = new ArrayList<>();
    runs.add(measure(
        new Subject("in-process", List.of(ThrowawayCoordination.inProcessComputeOnce())), options));
    runRedis(options, runs);
    if (json != null) {
      Json.MAPPER
          .writerWithDefaultPrettyPrinter()
          .writeValue(
              json.toFile(),
              new Result(keys, waiters, inFlight, computeMillis, nodes, List.copyOf(runs)));
      System.out.println("figures written to " + json);
    }
    return 0;
  }

  private void runRedis(ComputeOnceBench.Options options, List<Run> runs) {
    String where = redisUrl.getHost() + ":" + (redisUrl.getPort() < 0 ? 6379 : redisUrl.getPort());
    ThrowawayCoordination redis;
    try {
      redis = ThrowawayCoordination.redisNodes(redisUrl, nodes);
    } catch (CoordinationException e) {
      System.out.println("Redis at " + where + " is not reachable; the Redis runs are skipped ("
          + e.getMessage() + ")");
      return;
    }
    try (redis;
        var baseline = ComputeOnceBench.blmoveBaseline(
            redisUrl, nodes, "tidings-bench-" + UUID.randomUUID() + ":")) {
      runs.add(measure(
          new Subject("redis baseline: BLMOVE per waiter, " + nodes + " nodes", baseline.nodes()),
          options));
      runs.add(measure(
          new Subject("redis: flight per key + pub/sub, " + nodes + " nodes", redis.computeOnce()),
          options));
    }
  }

  private static Run measure(Subject subject, ComputeOnceBench.Options options) {
    Run run = ComputeOnceBench.run(subject, options, ComputeOnceBenchCommand::progress);
    System.out.printf(
        Locale.ROOT,
        "%-44s %,9.0f calls/s  p50 %7.2f ms  p99 %7.2f ms  max %8.2f ms  computed %,d  timed out %,d"
            + "  failed %,d  wrong keys %,d%n",
        run.name(),
        run.callsPerSecond(),
        run.p50Millis(),
        run.p99Millis(),
        run.maxMillis(),
        run.computations(),
        run.timedOut(),
        run.failed(),
        run.wrongKeys());
    return run;
  }

  private static Tracker progress(String task, long total) {
    return ProgressTracker.of(task, total, "calls");
  }
}

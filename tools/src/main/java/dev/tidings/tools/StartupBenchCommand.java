package dev.tidings.tools;

import dev.tidings.bench.AotTraining;
import dev.tidings.bench.NodeProcess;
import dev.tidings.bench.NodeWorkload;
import dev.tidings.bench.StartupBench;
import dev.tidings.bench.StartupCurve;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "startup",
    mixinStandardHelpOptions = true,
    description = {
      "A freshly started node's first seconds: serve nodes of the engine's jar on the same embedded"
          + " PostgreSQL, started without and with the AOT cache, each driven at a fixed concurrency"
          + " (open-time slots first and again, pixel, click, events, receipts, recommendations)"
          + " from its first answer.",
      "Prints answered requests per second since start for the first --chart-seconds, each node's"
          + " steady throughput (its run's last --steady-seconds) and the second it first reached 80%"
          + " of it."
    })
final class StartupBenchCommand implements Callable<Integer> {
  @Option(
      names = "--jar",
      description = "the jar the nodes run (default: engine/target/tidings.jar)")
  Path jar = Path.of("engine", "target", "tidings.jar");

  @Option(
      names = "--cache",
      description = "an AOT cache trained on --jar (default: train one first, as ./tidings does)")
  @Nullable Path cache;

  @Option(
      names = "--run-seconds",
      defaultValue = "120",
      description = "how long each node runs from its start (default ${DEFAULT-VALUE})")
  int runSeconds;

  @Option(
      names = "--steady-seconds",
      defaultValue = "20",
      description =
          "the run's last seconds that give its steady throughput (default ${DEFAULT-VALUE})")
  int steadySeconds;

  @Option(
      names = "--chart-seconds",
      defaultValue = "30",
      description = "seconds since start charted (default ${DEFAULT-VALUE})")
  int chartSeconds;

  @Option(
      names = "--rounds",
      defaultValue = "2",
      description = "rounds of both (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(
      names = "--lanes",
      defaultValue = "16",
      description = "readers at once, each an email at a time (default ${DEFAULT-VALUE})")
  int lanes;

  @Option(
      names = "--products",
      defaultValue = "60",
      description =
          "catalogue size (default ${DEFAULT-VALUE}: small enough that the warm-up before the rounds"
              + " renders every product card, which the nodes then share from the data directory)")
  int products;

  @Option(
      names = "--node-jvm-option",
      description =
          "an option for every node's JVM, repeatable (default: the launcher's); {node} is"
              + " replaced by the node's name, e.g. -XX:StartFlightRecording=filename=/tmp/{node}.jfr")
  List<String> nodeJvmOptions = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    if (!Files.isRegularFile(jar))
      throw new UsageException(jar + " is not there: build it with ./mvnw -DskipTests package");
    if (runSeconds < 2 || steadySeconds < 1 || steadySeconds >= runSeconds)
      throw new UsageException("--steady-seconds must be at least 1 and less than --run-seconds");
    if (chartSeconds < 1 || chartSeconds > runSeconds)
      throw new UsageException("--chart-seconds must be within 1..--run-seconds");
    List<String> jvm = nodeJvmOptions.isEmpty() ? NodeProcess.LAUNCHER_JVM_OPTIONS : nodeJvmOptions;
    try (var work = ScratchDirectory.create("tidings-startup-bench-")) {
      Path aot = cache;
      if (aot == null) {
        aot = work.path().resolve("tidings.aot");
        AotTraining.train(
            jar, jvm, aot, AotTraining.DEFAULT_LOAD, work.path(), StartupBenchCommand::say);
      }
      var options = new StartupBench.Options(
          jar,
          aot,
          jvm,
          new NodeWorkload.Shape(lanes, 5, products, 5_000),
          Duration.ofSeconds(runSeconds),
          steadySeconds,
          rounds,
          work.path());
      System.out.printf(
          "%d readers, %d cores, each node run %d s from its start, steady = its last %d s%n",
          lanes, Runtime.getRuntime().availableProcessors(), runSeconds, steadySeconds);
      List<StartupCurve> curves = StartupBench.run(options, StartupBenchCommand::say);
      for (int round = 0; round < rounds; round++) {
        List<StartupCurve> pair = List.of(curves.get(2 * round), curves.get(2 * round + 1)).stream()
            .sorted((a, b) -> a.name().compareTo(b.name()))
            .toList()
            .reversed();
        System.out.println();
        System.out.println("round " + (round + 1) + ": requests answered per second since start"
            + " (bars to the higher steady throughput, | at 80% of each node's own)");
        StartupCurve.chart(pair, chartSeconds).forEach(System.out::println);
        for (StartupCurve curve : pair) print(curve);
      }
    }
    return 0;
  }

  private static void print(StartupCurve curve) {
    var spans = new StringBuilder();
    for (double mean : curve.spans(10)) spans.append(String.format(Locale.ROOT, " %,.0f", mean));
    System.out.printf("%-7s req/s per 10 s since start:%s%n", curve.name(), spans);
    var efficiency = new StringBuilder();
    for (double ratio : curve.requestsPerCpuSecond(10))
      efficiency.append(String.format(Locale.ROOT, " %,.0f", ratio));
    System.out.printf(
        "%-7s requests per CPU second of the node's JVM, per 10 s:%s%n", curve.name(), efficiency);
    System.out.printf(
        Locale.ROOT,
        "%-7s first answer %5.1f s  steady %,7.0f req/s  80%% of steady in second %3d"
            + "  answered in the first 15 s %,8d, in the first 30 s %,8d%n",
        curve.name(),
        curve.firstAnswerSeconds(),
        curve.steadyPerSecond(),
        curve.secondsToReach(0.8),
        curve.answeredWithin(15),
        curve.answeredWithin(30));
  }

  private static void say(String line) {
    System.err.println(line);
  }
}

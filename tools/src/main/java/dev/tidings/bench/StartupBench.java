package dev.tidings.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A freshly started node's first seconds, with and without an AOT cache, on the same data: a shop is
 * loaded once into an embedded PostgreSQL under {@code work}; then, round after round (the order
 * alternating), a {@code serve} node is started on it without the cache and one with it, each driven
 * by {@link NodeWorkload} at a fixed concurrency from the moment it first answers until {@code
 * runFor} after its process started. Each curve's steady throughput is its own last seconds.
 */
public final class StartupBench {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);
  private static final Duration DRIVER_WARMUP = Duration.ofSeconds(45);

  /** What to run. {@code cache} is used as it is: it must have been trained on {@code jar}. */
  public record Options(
      Path jar,
      Path cache,
      List<String> jvmOptions,
      NodeWorkload.Shape shape,
      Duration runFor,
      int steadySeconds,
      int rounds,
      Path work) {
    public Options {
      jvmOptions = List.copyOf(jvmOptions);
      if (rounds < 1) throw new IllegalArgumentException("rounds must be >= 1");
      if (steadySeconds < 1 || steadySeconds >= runFor.toSeconds())
        throw new IllegalArgumentException("steadySeconds must be >= 1 and shorter than the run");
    }
  }

  private StartupBench() {}

  /** The curves in the order run: without, with, with, without, ... */
  public static List<StartupCurve> run(Options options, Consumer<String> say) {
    Path data = options.work().resolve("data");
    try {
      Files.createDirectories(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var workload = new NodeWorkload(options.shape());
    say.accept("loading the shop once (" + options.shape().products() + " products, "
        + options.shape().subscribers() + " subscribers) into " + data);
    try (var node = NodeProcess.start(
        launch(options, false, "setup"), data, options.work().resolve("setup-node.log"))) {
      node.awaitFirstAnswer(START_TIMEOUT);
      workload.loadShop(node.port());
      // renders the product cards into the data directory, where every node finds them, and warms
      // this process's own load generator, so the first node measured meets no colder a client
      // than the last
      say.accept("warming the load generator on it for " + DRIVER_WARMUP.toSeconds() + " s");
      long from = System.nanoTime();
      workload.run(node.port(), from, from + DRIVER_WARMUP.toNanos(), 1);
      node.stop(STOP_TIMEOUT);
    }
    List<StartupCurve> curves = new ArrayList<>();
    long runId = 10;
    for (int round = 1; round <= options.rounds(); round++) {
      boolean cacheFirst = round % 2 == 0;
      for (boolean withCache : new boolean[] {cacheFirst, !cacheFirst}) {
        String name = withCache ? "aot" : "no-aot";
        say.accept("round " + round + ": starting a node " + (withCache ? "with" : "without")
            + " the AOT cache, driving it for " + options.runFor().toSeconds() + " s from start");
        Path log = options.work().resolve("round-" + round + "-" + name + ".log");
        String nodeName = name + "-" + round;
        try (var node = NodeProcess.start(launch(options, withCache, nodeName), data, log)) {
          int seconds = (int) options.runFor().toSeconds();
          var cpu = new CpuSampler(node, seconds);
          Thread sampler = Thread.ofVirtual().start(cpu);
          long answered = node.awaitFirstAnswer(START_TIMEOUT);
          long until = node.startedNanos() + options.runFor().toNanos();
          var result = workload.run(node.port(), node.startedNanos(), until, runId++);
          join(sampler);
          var curve = new StartupCurve(
              name,
              result.perSecond(),
              cpu.perSecond(),
              (answered - node.startedNanos()) / 1e9,
              options.steadySeconds());
          say.accept(String.format(
              Locale.ROOT,
              "%s: first answer %.1f s after start, steady %,.0f requests/s, 80%% of it in second"
                  + " %d, %,d failed",
              name,
              curve.firstAnswerSeconds(),
              curve.steadyPerSecond(),
              curve.secondsToReach(0.8),
              result.errors()));
          if (result.errors() > 0)
            throw new IllegalStateException(
                result.errors() + " requests failed on the " + name + " node; see " + log);
          curves.add(curve);
          node.stop(STOP_TIMEOUT);
        }
      }
    }
    return curves;
  }

  private static void join(Thread thread) {
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** The node's CPU seconds at the end of each second since its start, as increments per second. */
  private static final class CpuSampler implements Runnable {
    private final NodeProcess node;
    private final double[] perSecond;

    CpuSampler(NodeProcess node, int seconds) {
      this.node = node;
      this.perSecond = new double[seconds];
    }

    @Override
    public void run() {
      double before = 0;
      for (int s = 0; s < perSecond.length; s++) {
        long wake = node.startedNanos() + (s + 1) * 1_000_000_000L;
        long wait = wake - System.nanoTime();
        if (wait > 0) {
          try {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
          } catch (InterruptedException e) {
            return;
          }
        }
        double now = node.cpuSeconds();
        if (now < 0) return;
        perSecond[s] = now - before;
        before = now;
      }
    }

    double[] perSecond() {
      return perSecond.clone();
    }
  }

  private static NodeProcess.Launch launch(Options options, boolean withCache, String nodeName) {
    List<String> jvm = new ArrayList<>();
    for (String option : options.jvmOptions()) jvm.add(option.replace("{node}", nodeName));
    if (withCache) {
      // on: a cache that cannot be used fails the start here rather than measuring no cache twice
      jvm.add("-XX:AOTCache=" + options.cache().toAbsolutePath());
      jvm.add("-XX:AOTMode=on");
    }
    return new NodeProcess.Launch(options.jar().toAbsolutePath(), jvm, List.of("serve"));
  }
}

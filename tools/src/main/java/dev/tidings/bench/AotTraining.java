package dev.tidings.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A training run for a JDK 25 AOT cache (JEP 483, 514, 515): a {@code serve} node of {@code jar},
 * started with the JVM options it will run with and {@code -XX:AOTCacheOutput}, on an embedded
 * PostgreSQL of its own under {@code work}, is given a shop and then {@link NodeWorkload}'s day in
 * miniature for {@code load}; stopped with SIGTERM, the JVM writes the classes it loaded and linked
 * and the methods' profiles into the cache on its way out. The cache is written beside {@code output}
 * and moved into place only once complete, so a reader never meets half a cache.
 */
public final class AotTraining {
  /**
   * How long the training node is under load: in {@code bench startup}, caches from 60 s of training
   * gave a node 2-3x the requests of its baseline in its first 30 s where 20 s gave no steady gain.
   */
  public static final Duration DEFAULT_LOAD = Duration.ofSeconds(60);

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration WRITE_TIMEOUT = Duration.ofMinutes(5);
  private static final NodeWorkload.Shape SHAPE = new NodeWorkload.Shape(8, 5, 200, 1_000);

  private AotTraining() {}

  /** Trains and writes the cache; returns its size in bytes. */
  public static long train(
      Path jar,
      List<String> jvmOptions,
      Path output,
      Duration load,
      Path work,
      Consumer<String> say) {
    long started = System.nanoTime();
    Path partial = output.resolveSibling(output.getFileName() + ".partial");
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-XX:AOTCacheOutput=" + partial.toAbsolutePath());
    Path data = work.resolve("training-data");
    Path log = work.resolve("training-node.log");
    try {
      Files.createDirectories(data);
      Files.deleteIfExists(partial);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    say.accept("starting a training node (" + jar.getFileName() + " serve, embedded PostgreSQL"
        + " in " + data + ")");
    try (var node = NodeProcess.start(
        new NodeProcess.Launch(jar.toAbsolutePath(), options, List.of("serve")), data, log)) {
      long answered = node.awaitFirstAnswer(START_TIMEOUT);
      say.accept(String.format(
          Locale.ROOT,
          "node up after %.1f s; loading a shop of %,d products and %,d subscribers",
          (answered - node.startedNanos()) / 1e9,
          SHAPE.products(),
          SHAPE.subscribers()));
      var workload = new NodeWorkload(SHAPE);
      workload.loadShop(node.port());
      say.accept("opening emails, posting events and receipts, asking for recommendations for "
          + load.toSeconds() + " s");
      long from = System.nanoTime();
      var result = workload.run(node.port(), from, from + load.toNanos(), 1);
      say.accept(String.format(
          Locale.ROOT,
          "%,d requests answered (%,d failed); writing the cache as the node stops",
          result.requests(),
          result.errors()));
      int exit = node.stop(WRITE_TIMEOUT);
      if (exit != 0)
        throw new IllegalStateException("the training node exited with " + exit + "; see " + log);
    }
    try {
      if (!Files.isRegularFile(partial))
        throw new IllegalStateException("the training node wrote no AOT cache; see " + log);
      long size = Files.size(partial);
      Files.move(
          partial, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      say.accept(String.format(
          Locale.ROOT,
          "AOT cache %s written (%,d MB) in %.0f s",
          output,
          size >> 20,
          (System.nanoTime() - started) / 1e9));
      return size;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move the cache to " + output, e);
    }
  }
}

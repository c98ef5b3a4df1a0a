package dev.tidings.tools;

import dev.tidings.bench.AotTraining;
import dev.tidings.bench.NodeProcess;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Writes the AOT cache the launchers start {@code serve}, {@code worker} and {@code demo} with, from a
 * training run of the jar it is for. Hidden: {@code ./tidings} and {@code dist/assemble} run it.
 */
@Command(
    name = "aot-train",
    hidden = true,
    mixinStandardHelpOptions = true,
    description =
        "Train a JDK AOT cache for a Tidings jar: a node of it under load, then its cache.")
final class AotTrainCommand implements Callable<Integer> {
  @Option(names = "--jar", required = true, description = "the jar the cache is for")
  Path jar;

  @Option(names = "--output", required = true, description = "the cache file to write")
  Path output;

  @Option(
      names = "--seconds",
      defaultValue = "60",
      description = "seconds of load after the shop is loaded (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--node-jvm-option",
      description =
          "an option for the training node's JVM, repeatable: the options the cache will be used"
              + " with (default: the launcher's)")
  List<String> nodeJvmOptions = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    if (!Files.isRegularFile(jar)) throw new UsageException(jar + " is not a file");
    if (seconds < 1) throw new UsageException("--seconds must be at least 1");
    List<String> options =
        nodeJvmOptions.isEmpty() ? NodeProcess.LAUNCHER_JVM_OPTIONS : nodeJvmOptions;
    try (var work = ScratchDirectory.create("tidings-aot-train-")) {
      AotTraining.train(
          jar,
          options,
          output.toAbsolutePath(),
          Duration.ofSeconds(seconds),
          work.path(),
          line -> System.err.println("aot: " + line));
    }
    return 0;
  }
}

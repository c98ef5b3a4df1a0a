package dev.tidings.cli;

import dev.tidings.app.ActivityWiring;
import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "aggregates",
    mixinStandardHelpOptions = true,
    description =
        "The activity aggregates: how many stored events wait to be counted, or a rebuild.",
    subcommands = {AggregatesCommand.Status.class, AggregatesCommand.Rebuild.class})
final class AggregatesCommand implements Runnable {
  @Override
  public void run() {
    throw new UsageException("say what to do: status or rebuild NAME");
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = "Prints how many stored events wait to be counted into the aggregates.")
  static final class Status extends EnvironmentAware implements Callable<Integer> {
    @Override
    public Integer call() {
      var settings = settings();
      Logging.configure(settings.logFormat());
      try (var node = Node.of(settings)) {
        long waiting = node.capability(ActivityWiring.class).aggregation().waiting();
        System.out.printf("%,d events wait to be counted%n", waiting);
      }
      return 0;
    }
  }

  @Command(
      name = "rebuild",
      mixinStandardHelpOptions = true,
      description = {
        "Counts the stored history into one aggregation again: its aggregates are deleted and every event",
        "counted so far is counted into it, while the nodes' counting waits. For an aggregation added (or",
        "changed) after events arrived; run it again if it stops part-way."
      })
  static final class Rebuild extends EnvironmentAware implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "the aggregation, e.g. co_view")
    String name = "";

    @Option(
        names = "--batch",
        defaultValue = "20000",
        description = "events counted per transaction (default ${DEFAULT-VALUE})")
    int batch;

    @Override
    public Integer call() {
      if (batch < 1) throw new UsageException("--batch must be at least 1");
      var settings = settings();
      Logging.configure(settings.logFormat());
      try (var node = Node.of(settings)) {
        var aggregation = node.capability(ActivityWiring.class).aggregation();
        long counted;
        try (var progress = Progress.of("rebuilding " + name, 0, "events")) {
          try {
            counted = aggregation.rebuild(name, batch, progress::stepTo);
          } catch (IllegalArgumentException e) {
            throw new UsageException(String.valueOf(e.getMessage()));
          }
        }
        System.out.printf("%s: %,d events counted again%n", name, counted);
      }
      return 0;
    }
  }
}

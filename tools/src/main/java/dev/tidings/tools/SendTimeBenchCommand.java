package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.SendTimeBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "send-time",
    mixinStandardHelpOptions = true,
    description = {
      "Planning send times per subscriber: loads N subscribers (time zones, open hours for a share of",
      "them), then starts a campaign at once (the baseline: audience into the send ledger) and one with",
      "send time per subscriber (open hours read, planned, written with hours and cohorts), and plans",
      "alone without the ledger. Prints each one's seconds and recipients/s. Uses TIDINGS_DB_URL when set",
      "(in a schema of its own, dropped afterwards), else a fresh embedded PostgreSQL."
    })
final class SendTimeBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--subscribers",
      defaultValue = "1000000",
      description = "recipients to plan (default ${DEFAULT-VALUE})")
  long subscribers;

  @Option(
      names = "--history-share",
      defaultValue = "0.6",
      description = "share of subscribers with open-hour history (default ${DEFAULT-VALUE})")
  double historyShare;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (subscribers < 1 || !(historyShare >= 0 && historyShare <= 1))
      throw new UsageException("--subscribers must be at least 1, --history-share within 0..1");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-send-time")) {
      SendTimeBench.Result result;
      try (var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 4)) {
        System.out.println("database: " + throwaway.database().describe());
        result = SendTimeBench.run(
            throwaway.database(),
            ThrowawayQueues.queueTables(throwaway.database()),
            new SendTimeBench.Options(subscribers, historyShare),
            (task, total) -> ProgressTracker.of(task, total, "subscribers"),
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

package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.cli.Progress;
import dev.tidings.cli.UsageException;
import dev.tidings.evaluation.SendTimeEvaluation;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "send-time",
    mixinStandardHelpOptions = true,
    description = {
      "Per-subscriber send times on simulated readers with habitual hours: weeks of past emails give each",
      "reader's open hours, the engine's planner plans one campaign with a hold-out, and each reader's open",
      "is drawn for at once, the planned time (timed), the hold-out and an oracle that knows the true hours.",
      "Prints each human open rate with a 95% interval, and the timed cohort's lift. The effect's size",
      "follows the simulated readers' model (printed beside the figures), not real people."
    })
final class SendTimeEvaluateCommand implements Callable<Integer> {
  @Option(names = "--readers", defaultValue = "50000", description = "default ${DEFAULT-VALUE}")
  int readers;

  @Option(
      names = "--weeks",
      defaultValue = "4",
      description = "weeks of past emails (3 a week) before the campaign; default ${DEFAULT-VALUE}")
  int weeks;

  @Option(names = "--within", defaultValue = "PT24H", description = "default ${DEFAULT-VALUE}")
  String within = "PT24H";

  @Option(names = "--holdout", defaultValue = "0.1", description = "default ${DEFAULT-VALUE}")
  double holdout;

  @Option(names = "--seed", defaultValue = "42", description = "default ${DEFAULT-VALUE}")
  long seed;

  @Option(names = "--json", description = "also write the report as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    Duration window;
    try {
      window = Duration.parse(within);
    } catch (DateTimeParseException e) {
      throw new UsageException("--within must be an ISO-8601 duration such as PT24H");
    }
    if (readers < 100
        || weeks < 0
        || !(holdout > 0 && holdout <= 0.5)
        || window.compareTo(Duration.ofHours(1)) < 0
        || window.compareTo(Duration.ofDays(7)) > 0)
      throw new UsageException(
          "--readers must be at least 100, --weeks at least 0, --holdout within"
              + " (0, 0.5], --within within PT1H..P7D");
    var defaults = SendTimeEvaluation.Options.defaults();
    var options = new SendTimeEvaluation.Options(
        readers,
        weeks,
        defaults.newReaderShare(),
        defaults.unknownZoneShare(),
        window,
        holdout,
        seed);
    SendTimeEvaluation.Report report;
    try (var bar = Progress.of("simulating readers", readers, "readers")) {
      report = SendTimeEvaluation.run(options, bar::stepTo);
    }
    System.out.printf(
        Locale.ROOT,
        "%,d readers, %d weeks of history (%,d past human opens), window %s, hold-out %.0f%%%n",
        readers,
        weeks,
        report.pastOpens(),
        window,
        holdout * 100);
    System.out.println("model: " + report.model());
    for (var rate : report.rates())
      System.out.printf(
          Locale.ROOT,
          "  %-9s %,7d readers  human open rate %5.2f%%  (95%% CI %5.2f%% .. %5.2f%%)%n",
          rate.policy(),
          rate.readers(),
          rate.rate() * 100,
          rate.low() * 100,
          rate.high() * 100);
    for (var lift : report.lifts())
      System.out.printf(
          Locale.ROOT,
          "  timed - %-9s %+5.2f points  (95%% CI %+5.2f .. %+5.2f)%n",
          lift.against(),
          lift.difference() * 100,
          lift.low() * 100,
          lift.high() * 100);
    if (json != null) {
      Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), report);
      System.out.println("report written to " + json);
    }
    return 0;
  }
}

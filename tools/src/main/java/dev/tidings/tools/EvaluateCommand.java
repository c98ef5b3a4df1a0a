package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.cli.Progress;
import dev.tidings.cli.UsageException;
import dev.tidings.recommend.evaluation.Evaluation;
import dev.tidings.recommend.evaluation.EvaluationProgress;
import dev.tidings.recommend.evaluation.EvaluationReport;
import dev.tidings.recommend.evaluation.EventsReader;
import dev.tidings.recommend.evaluation.InteractionFormat;
import dev.tidings.recommend.evaluation.Interactions;
import dev.tidings.recommend.evaluation.LoadReport;
import dev.tidings.recommend.evaluation.MetricsSummary;
import dev.tidings.recommend.evaluation.OnlineRetailReader;
import dev.tidings.recommend.evaluation.Setting;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    subcommands = {SendTimeEvaluateCommand.class},
    description = {
      "Offline recommendation quality on an interaction file: each user's last basket is held out, every",
      "algorithm ranks the whole catalogue from the earlier baskets; HR, NDCG, precision, recall, MRR at k and",
      "catalogue coverage, with already-bought items kept and excluded, against popularity. The blend's weights",
      "are tuned on a validation split carved out of the training baskets, never on the test baskets."
    })
final class EvaluateCommand implements Callable<Integer> {
  // not required by picocli, which would ask it of the send-time subcommand too
  @Option(names = "--interactions", description = "the interaction file (required)")
  @Nullable Path interactions;

  @Option(
      names = "--format",
      defaultValue = "events",
      description =
          "online-retail (the UCI CSV, .gz too) or events (Tidings' events format, .jsonl or"
              + " .csv, .gz too); default ${DEFAULT-VALUE}")
  String format = "events";

  @Option(
      names = "--tune-live",
      description =
          "instead, choose the live recommender's settings on the validation split (the test"
              + " baskets are not read) and print them with the trials")
  boolean tuneLive;

  @Option(names = "--json", description = "also write the report as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    InteractionFormat kind;
    try {
      kind = InteractionFormat.parse(format);
    } catch (IllegalArgumentException e) {
      throw new UsageException(String.valueOf(e.getMessage()));
    }
    if (interactions == null)
      throw new UsageException("--interactions is required (or evaluate send-time)");
    Path interactions = this.interactions;
    if (!Files.isRegularFile(interactions)) {
      throw new UsageException("no such file: " + interactions);
    }
    var builder = new Interactions.Builder();
    LoadReport load;
    try (var progress = Progress.of("read " + interactions.getFileName(), -1, "lines")) {
      load = switch (kind) {
        case ONLINE_RETAIL -> OnlineRetailReader.read(interactions, builder, progress::stepTo);
        case EVENTS -> EventsReader.read(interactions, builder, progress::stepTo);
      };
    }
    Interactions rows = builder.build();
    if (rows.size() == 0) throw new UsageException("no purchases in " + interactions);
    EvaluationProgress bars = (task, total, unit) -> {
      var bar = Progress.of(task, total, unit);
      return new EvaluationProgress.Step() {
        @Override
        public void stepTo(long done) {
          bar.stepTo(done);
        }

        @Override
        public void close() {
          bar.close();
        }
      };
    };
    var evaluation = new Evaluation(Evaluation.Options.defaults(), bars);
    if (tuneLive) {
      for (var tuned : evaluation.tuneLive(rows)) {
        System.out.printf(Locale.ROOT, "%nbought items %s:%n", tuned.setting().label());
        for (var trial : tuned.trials())
          System.out.printf(
              Locale.ROOT,
              "%-32s %8s  validation NDCG@10 %.4f%n",
              trial.knob(),
              trial.value(),
              trial.ndcg());
        System.out.printf(
            Locale.ROOT, "chosen (validation NDCG@10 %.4f): %s%n", tuned.ndcg(), tuned.describe());
      }
      return 0;
    }
    EvaluationReport report = evaluation.run(rows);
    print(System.out, load, report);
    if (json != null) {
      Files.writeString(
          json,
          Json.MAPPER
              .writerWithDefaultPrettyPrinter()
              .writeValueAsString(Map.of("load", load, "report", report)));
    }
    return 0;
  }

  private static void print(PrintStream out, LoadReport load, EvaluationReport report) {
    out.printf(
        Locale.ROOT,
        "read %,d lines, kept %,d purchases; dropped: %s%n",
        load.linesRead(),
        load.rowsKept(),
        load.droppedByReason().isEmpty()
            ? "none"
            : load.droppedByReason().entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", ")));
    out.printf(
        Locale.ROOT,
        "%,d users, %,d items in training; %,d users tested (last basket held out), %,d in validation;"
            + " buy-again half-life %.0f days (tuned); EASE on %,d items (inverted in %.1f s); %.1f s%n%n",
        report.users(),
        report.items(),
        report.testedUsers(),
        report.validationUsers(),
        report.buyAgainHalfLifeDays(),
        report.easeItems(),
        report.easeInversionSeconds(),
        report.seconds());
    int k = report.k();
    out.printf(
        Locale.ROOT,
        "| algorithm | bought items | users | HR@%d | NDCG@%d | precision@%d | recall@%d | MRR@%d | coverage |%n",
        k,
        k,
        k,
        k,
        k);
    out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Setting setting : Setting.values()) {
      for (var row : report.rows()) {
        if (row.setting() != setting) continue;
        MetricsSummary m = row.metrics();
        if (m == null) {
          out.printf(
              Locale.ROOT,
              "| %s | %s | - | - | - | - | - | - | - |%n",
              row.algorithm(),
              setting.label());
        } else {
          out.printf(
              Locale.ROOT,
              "| %s | %s | %,d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
              row.algorithm(),
              setting.label(),
              m.users(),
              m.hitRate(),
              m.ndcg(),
              m.precision(),
              m.recall(),
              m.mrr(),
              m.coverage());
        }
      }
    }
    out.println();
    for (var weights : report.blendWeights()) {
      out.printf(
          Locale.ROOT,
          "blend weights (%s, validation NDCG@%d %.3f): %s%s%n",
          weights.setting().label(),
          k,
          weights.validationNdcg(),
          weights.weights(),
          weights.repeatRateExponent() == 0
              ? ""
              : ", buy-again's weight times the user's repeat rate^"
                  + weights.repeatRateExponent());
    }
  }
}

package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.ImportBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.sample.SampleFormat;
import dev.tidings.sample.SampleProgress;
import dev.tidings.sample.SampleShop;
import dev.tidings.sample.SampleShopSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Import throughput of 1M products and 1M subscribers, against a raw COPY of the same files.",
      "Generates the files (sample shop, CSV), imports them with Tidings' validating, streaming importer, and times",
      "a raw COPY into text columns and into tables shaped like the real ones, with peak heap per phase.",
      "Uses TIDINGS_DB_URL when set (in a schema of its own, dropped afterwards), else a fresh embedded PostgreSQL.",
      "Run with TIDINGS_JAVA_OPTS=-Xmx256m to check the heap bound."
    })
final class ImportBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--rows",
      defaultValue = "1000000",
      description = "rows per file (default ${DEFAULT-VALUE})")
  int rows;

  @Option(
      names = "--seed",
      defaultValue = "7",
      description = "sample seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException {
    if (rows < 1) throw new UsageException("--rows must be at least 1");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-import")) {
      Path work = scratch.path();
      var spec = SampleShopSpec.of(seed, rows, rows);
      Path products = work.resolve("products.csv");
      Path subscribers = work.resolve("subscribers.csv");
      generate(
          "products",
          products,
          (file, progress) -> SampleShop.writeProducts(spec, file, SampleFormat.CSV, progress));
      generate(
          "subscribers",
          subscribers,
          (file, progress) -> SampleShop.writeSubscribers(spec, file, SampleFormat.CSV, progress));
      System.out.printf(
          Locale.ROOT,
          "files: products %,d MB, subscribers %,d MB%n",
          Files.size(products) >> 20,
          Files.size(subscribers) >> 20);
      ImportBench.Result result;
      try (var throwaway = ThrowawayDatabase.open(settings, work)) {
        System.out.println("database: " + throwaway.database().describe());
        result = ImportBench.run(products, subscribers, throwaway.database(), System.out);
      }
      if (json != null) {
        Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), result);
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }

  private interface Writer {
    long write(Path file, SampleProgress progress);
  }

  private void generate(String kind, Path file, Writer writer) {
    try (var progress = ProgressTracker.of("generating " + kind, rows)) {
      writer.write(file, (ignoredKind, written, expected) -> progress.stepTo(written));
    }
  }
}

package dev.tidings.cli;

import dev.tidings.InvalidInputException;
import dev.tidings.app.ActivityWiring;
import dev.tidings.app.AudienceWiring;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportMode;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Bulk import a CSV or JSON Lines file (.csv, .jsonl, .ndjson, optionally .gz); formats in docs/import-formats.md.",
      "products also reads a Google Merchant Center product feed (RSS or Atom XML, or tab-separated text, optionally gzip-compressed), told from its content; docs/feeds.md.",
      "Valid rows are imported and every invalid row is reported with its line; with --all-or-nothing one invalid row imports nothing.",
      "Exit status 0 when every row was imported, 1 when any row was rejected or nothing was imported."
    })
public final class ImportCommand extends EnvironmentAware implements Callable<Integer> {
  enum Kind {
    products,
    subscribers,
    follows,
    events
  }

  @Parameters(index = "0", description = "what the file holds: ${COMPLETION-CANDIDATES}")
  Kind kind;

  @Parameters(index = "1", description = "the file")
  Path file;

  @Option(names = "--all-or-nothing", description = "import nothing if any row is invalid")
  boolean allOrNothing;

  @Option(
      names = "--not-news",
      description =
          "products: what the file adds (new products, products back in stock) is not news; nobody"
              + " who follows their brands is told")
  boolean notNews;

  @Option(
      names = "--errors",
      defaultValue = "20",
      description = "how many rejected rows to print (default ${DEFAULT-VALUE})")
  int errorsToPrint;

  @Option(
      names = "--no-count",
      description =
          "events: leave counting them into the aggregates to the running nodes (by default"
              + " the command counts what waits before it ends, so recommendations reflect the history"
              + " at once)")
  boolean noCount;

  /**
   * Events counted per round: a history shares keys across many events (an item's day, a pair bought
   * again), so large rounds sum them before writing; the most a node's rounds grow to under load.
   */
  private static final int COUNT_ROUND = 20_000;

  /** Rounds at once: one computes its sums while the other's are written (two cores). */
  private static final int COUNT_LOOPS = 2;

  /** Failed rounds in a row a loop retries before the command fails. */
  private static final int MAX_ROUND_FAILURES = 5;

  @Override
  public Integer call() {
    // Everything about the file is checked before any server is opened or started.
    if (!Files.isRegularFile(file)) throw new UsageException("no such file: " + file);
    if (!Files.isReadable(file)) throw new UsageException("cannot read " + file);
    if (notNews && kind != Kind.products)
      throw new UsageException("--not-news is for products only");
    // products may also be a feed, told from the content; the other kinds by their extension
    try {
      if (kind == Kind.products) Format.detect(file);
      else Format.of(file);
    } catch (InvalidInputException e) {
      throw new UsageException(String.join("; ", e.problems()));
    }
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var node = Node.of(settings)) {
      ImportReport report;
      try (var progress = Progress.of("importing " + kind, -1)) {
        var options = ImportOptions.defaults()
            .withMode(allOrNothing ? ImportMode.ALL_OR_NOTHING : ImportMode.VALID_ROWS)
            .withProgress(progress::stepTo)
            .withNews(!notNews);
        report = importer(node).run(file, options);
      }
      print(report, errorsToPrint);
      if (kind == Kind.events && report.committed() && report.imported() > 0 && !noCount)
        countWaitingEvents(node);
      return report.committed() && report.rejected() == 0 ? 0 : 1;
    }
  }

  /**
   * Counts every event waiting into the aggregates, in rounds as a node does, two at once (nodes
   * counting at the same time take other events: each round claims what no one holds), until none
   * waits; an event a node holds is counted by that node, and the command waits for it.
   */
  private static void countWaitingEvents(Node node) {
    var aggregation = node.capability(ActivityWiring.class).aggregation();
    long waiting = aggregation.waiting();
    var counted = new AtomicLong();
    long started = System.nanoTime();
    try (var progress = Progress.of("counting events", waiting, "events");
        var loops = Executors.newVirtualThreadPerTaskExecutor()) {
      var running = new ArrayList<Future<?>>();
      for (int i = 0; i < COUNT_LOOPS; i++)
        running.add(loops.submit(() -> {
          int failures = 0;
          while (true) {
            int round;
            try {
              round = aggregation.countOnce(COUNT_ROUND);
              failures = 0;
            } catch (RuntimeException e) {
              // a failed round counted nothing and its events wait; the other loop making a day's
              // partition can time this one out, as a node's rounds are retried
              if (++failures > MAX_ROUND_FAILURES) throw e;
              sleepBriefly();
              continue;
            }
            long total = counted.addAndGet(round);
            long left = aggregation.waiting();
            progress.stepTo(waiting - left);
            // oldest first: once this command alone has counted as many as waited,
            // the import's are done
            if (left == 0 || total >= waiting) return null;
            if (round == 0) sleepBriefly(); // the rest is held by nodes counting it
          }
        }));
      for (Future<?> loop : running) loop.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) throw failure;
      throw new IllegalStateException("counting the imported events failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while counting the imported events", e);
    }
    System.out.printf(
        Locale.ROOT,
        "counted %,d events into the aggregates here in %.1f s (the rest by the nodes):"
            + " recommendations reflect the history now%n",
        counted.get(),
        (System.nanoTime() - started) / 1e9);
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while counting the imported events", e);
    }
  }

  /** Only the capability that owns {@code kind} is wired, so only the database is opened. */
  private FileImporter importer(Node node) {
    return switch (kind) {
      case products ->
        (path, options) -> node.capability(CatalogWiring.class).catalog().importFile(path, options);
      case subscribers ->
        (path, options) ->
            node.capability(AudienceWiring.class).subscribers().importFile(path, options);
      case follows ->
        (path, options) ->
            node.capability(AudienceWiring.class).follows().importFile(path, options);
      case events ->
        (path, options) ->
            node.capability(ActivityWiring.class).intake().importEvents(path, options);
    };
  }

  @FunctionalInterface
  private interface FileImporter {
    ImportReport run(Path file, ImportOptions options);
  }

  public static void print(ImportReport report, int errorsToPrint) {
    var out = System.out;
    out.printf(
        Locale.ROOT,
        "%s: %,d rows read, %,d imported, %,d duplicates ignored, %,d rejected in %.1f s (%,.0f rows/s)%n",
        report.kind(),
        report.rowsRead(),
        report.imported(),
        report.ignored(),
        report.rejected(),
        report.duration().toMillis() / 1000.0,
        report.rowsPerSecond());
    report.failure().ifPresent(failure -> out.println("refused: " + failure));
    report.errors().stream()
        .limit(errorsToPrint)
        .forEach(error -> out.printf(Locale.ROOT, "  line %d: %s%n", error.line(), error.reason()));
    long more = report.rejected() - Math.min(errorsToPrint, report.errors().size());
    if (more > 0) out.printf(Locale.ROOT, "  ... and %,d more rejected rows%n", more);
    out.println(report.committed() ? "committed." : "nothing was imported.");
  }
}
